import { metadataKey } from './metadata.js';

/** `@Injectable` on a class: `true`; makes TypeScript emit `design:paramtypes` for it. */
export const INJECTABLE_KEY = metadataKey('injectable');

/**
 * Marks a provider (or a handler without other class decorators) whose constructor takes other
 * providers. TypeScript only records constructor parameter types (`design:paramtypes`) for
 * decorated classes, so a class with dependencies needs some class decorator; this is the one.
 */
export function Injectable(): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(INJECTABLE_KEY, true, target);
  };
}
