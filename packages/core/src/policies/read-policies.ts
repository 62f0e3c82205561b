import { type Class, readMetadata, readMetadataList } from '../kernel/metadata.js';
import type { GuardRef } from './guards.js';
import { COOLDOWN_KEY, type CooldownMetadata, ERROR_HOOK_KEY, GUARDS_KEY } from './metadata.js';

/** The policies a handler class declares for its methods. */
export interface PolicyDescription {
  /** Method decorated with `@OnError`. */
  errorHook?: string;
  /** Guards of a method: the class's first, then the method's. */
  guards(method: string): readonly GuardRef[];
  /** Cooldown of a method: its own, else the class's. */
  cooldown(method: string): CooldownMetadata | undefined;
}

/**
 * Reads `@UseGuards`, `@Cooldown` and `@OnError` of a class and its methods.
 *
 * @param cls - a handler class
 */
export function describePolicies(cls: Class): PolicyDescription {
  const errorHook = readMetadata<string>(ERROR_HOOK_KEY, cls);
  return {
    ...(errorHook ? { errorHook } : {}),
    guards: (method) => [
      ...readMetadataList<GuardRef>(GUARDS_KEY, cls),
      ...readMetadataList<GuardRef>(GUARDS_KEY, cls, method),
    ],
    cooldown: (method) =>
      readMetadata<CooldownMetadata>(COOLDOWN_KEY, cls, method) ?? readMetadata<CooldownMetadata>(COOLDOWN_KEY, cls),
  };
}
