import type { CooldownMetadata } from './metadata.js';

/**
 * Where cooldown windows are counted: in the process by default (`Cooldowns`), or in a store every
 * replica of the bot shares (`@boardbot/redis`), so that a person held by one replica is held by all.
 */
export interface CooldownStore {
  /**
   * Takes one use when the window allows it.
   * @param key - handler and scope id, e.g. `Roll.run:user:<id>`
   * @param cooldown - window and uses
   * @param useId - names this use (derived from the event and the handler): a store may count a use
   *   taken again under the same id (an event handled again) once
   * @returns 0 when the use was taken, else the milliseconds until the next use is allowed
   */
  take(key: string, cooldown: CooldownMetadata, useId: string): number | Promise<number>;
}
