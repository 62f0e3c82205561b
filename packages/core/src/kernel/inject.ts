import { type Class, metadataKey, readMetadata } from './metadata.js';
import type { InjectionToken } from './token.js';

/** What names a provider: its class, or a token for a value that is not a class. */
export type ProviderKey = Class | InjectionToken<unknown>;

/** `@Inject(Token)` on constructor parameters: the tokens, by parameter index. */
export const INJECT_KEY = metadataKey('inject');

/**
 * Names the provider a constructor parameter receives, for code compiled without decorator metadata
 * (tsx, esbuild, Bun): there, TypeScript's `design:paramtypes` is absent and the container cannot
 * tell what a parameter is. A static `inject` list on the class does the same without decorators.
 *
 * It also names a provider that is not a class, by its token (an interface has no type at run time).
 *
 * @param token - the provider class the parameter receives, or its {@link InjectionToken}
 * @example
 * class Greeter {
 *   constructor(@Inject(Names) private readonly names: Names, @Inject(MODEL) private readonly model: LanguageModel) {}
 * }
 */
export function Inject(token: Class | InjectionToken<unknown>): ParameterDecorator {
  return (target, property, index) => {
    // A constructor parameter's target is the class itself, and its property is undefined.
    if (property !== undefined) return;
    const tokens = [...(readMetadata<ProviderKey[]>(INJECT_KEY, target) ?? [])];
    tokens[index] = token;
    Reflect.defineMetadata(INJECT_KEY, tokens, target);
  };
}

/**
 * The providers a class's constructor names explicitly: its static `inject` list, else its
 * `@Inject` parameters (a parameter without one is `undefined`), else nothing.
 *
 * @param cls - the class being built
 */
export function explicitDependencies(cls: Class): readonly (ProviderKey | undefined)[] | undefined {
  const list: unknown = (cls as { inject?: unknown }).inject;
  if (Array.isArray(list)) return list as ProviderKey[];
  // Only the class's own parameters: a subclass's constructor has its own list.
  return Reflect.getOwnMetadata(INJECT_KEY, cls) as ProviderKey[] | undefined;
}
