import { InvalidHandlerError } from '../errors.js';
import type { CooldownMetadata, CooldownScope } from './metadata.js';
import { COOLDOWN_KEY } from './metadata.js';

/** What `@Cooldown` takes. */
export interface CooldownOptions {
  /** Window length in milliseconds. */
  ms: number;
  /** Uses allowed in one window. @defaultValue 1 */
  uses?: number;
  /** Who shares the window: each person, each board, or the whole app. @defaultValue 'user' */
  per?: CooldownScope;
}

/**
 * Limits how often a command or listener runs. A held command gets a reply saying when to try
 * again; a held message listener is skipped. On a class it applies to each handler of it.
 *
 * @param options - window, uses and scope
 */
export function Cooldown(options: CooldownOptions) {
  const meta: CooldownMetadata = { ms: options.ms, uses: options.uses ?? 1, per: options.per ?? 'user' };
  if (!(meta.ms > 0) || !Number.isInteger(meta.uses) || meta.uses < 1) {
    throw new InvalidHandlerError('@Cooldown needs ms > 0 and uses an integer ≥ 1');
  }
  return (target: object, method?: string | symbol, _descriptor?: PropertyDescriptor): void => {
    if (method === undefined) Reflect.defineMetadata(COOLDOWN_KEY, meta, target);
    else Reflect.defineMetadata(COOLDOWN_KEY, meta, target.constructor, String(method));
  };
}
