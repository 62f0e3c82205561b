import { metadataKey } from '../kernel/metadata.js';

/** `@UseGuards` on a class (no property) or a method: {@link GuardRef}[]. */
export const GUARDS_KEY = metadataKey('guards');
/** `@Cooldown` on a class (no property) or a method: {@link CooldownMetadata}. */
export const COOLDOWN_KEY = metadataKey('cooldown');
/** `@OnError` method of a class: its name. */
export const ERROR_HOOK_KEY = metadataKey('error-hook');

/** Whose uses a cooldown counts together. */
export type CooldownScope = 'user' | 'board' | 'app';

/** What `@Cooldown` stores. */
export interface CooldownMetadata {
  /** Length of the window, in milliseconds. */
  ms: number;
  /** Uses allowed per window and scope key. */
  uses: number;
  per: CooldownScope;
}
