import { InvalidHandlerError } from '../../errors.js';

/**
 * How a message listener takes a burst of messages under one key (see {@link BurstOptions.per}):
 * - `'queue'`: each message in turn (the default);
 * - `'debounce'`: once, `ms` after the last message of the burst, the earlier ones in `ctx.skipped`;
 * - `'drop'`: a message that arrives while a run of its key is going is ignored;
 * - `'latest'`: a message that arrives while a run of its key is going cancels it (its `ctx.signal`
 *   aborts, its later writes are dropped) and the newest message runs next;
 * - `'collapse'`: the messages that arrive while a run of its key is going are run once, together,
 *   when it ends (the newest as `ctx.message`, the others in `ctx.skipped`).
 */
export type BurstMode = 'queue' | 'debounce' | 'drop' | 'latest' | 'collapse';

/** A burst policy with its settings; a bare {@link BurstMode} takes the defaults (`'debounce'` needs `ms`). */
export interface BurstOptions {
  /** The policy. */
  mode: BurstMode;
  /**
   * `'debounce'` only: how long after a message (by the messages' `created_at`, the platform's time)
   * the burst closes unless another one arrives. Required with `'debounce'`.
   */
  ms?: number;
  /**
   * What a burst is made of: the messages of one author on one board (`'author'`), or of everyone on
   * one board (`'board'`). @defaultValue 'author'
   */
  per?: 'author' | 'board';
  /**
   * Most messages one burst holds for its run (`'debounce'`, `'latest'`, `'collapse'`), at least 2:
   * past it, the burst keeps its first message (its keys derive from it) and the newest ones, and
   * releases the others unread (`ctx.skippedCount` counts them), so one person's flood cannot hold
   * the bot's intake. @defaultValue 50
   */
  max?: number;
}

/** The defaults of {@link BurstOptions}. */
export const DEFAULT_BURST_OPTIONS = { per: 'author', max: 50 } as const satisfies Required<
  Pick<BurstOptions, 'per' | 'max'>
>;

/** A burst policy as the runtime keeps it. */
export interface BurstPolicy {
  /** The policy (`'queue'` keeps no policy at all). */
  mode: Exclude<BurstMode, 'queue'>;
  /** `'debounce'`'s quiet time, in milliseconds (0 for the other modes). */
  ms: number;
  /** What a burst is made of: one author's messages on a board, or the board's. */
  per: 'author' | 'board';
  /** Most messages one burst holds for its run. */
  max: number;
}

const MODES: readonly BurstMode[] = ['queue', 'debounce', 'drop', 'latest', 'collapse'];

/**
 * Checks a listener's `burst` option when it is declared, and says the fix when it is wrong.
 * @param burst - the option as given
 * @param where - `Class.method`, for the message
 * @returns the policy, or undefined for `'queue'` (the ordinary path)
 */
export function burstPolicy(burst: BurstMode | BurstOptions, where: string): BurstPolicy | undefined {
  const options: BurstOptions = typeof burst === 'string' ? { mode: burst } : burst;
  const { mode, ms, per = DEFAULT_BURST_OPTIONS.per, max = DEFAULT_BURST_OPTIONS.max } = options;
  if (!MODES.includes(mode)) {
    throw new InvalidHandlerError(`${where}: burst must be one of ${MODES.join(', ')}, got ${String(mode)}`);
  }
  if (per !== 'author' && per !== 'board') {
    throw new InvalidHandlerError(`${where}: burst.per must be 'author' or 'board', got ${String(per)}`);
  }
  if (!Number.isSafeInteger(max) || max < 2) {
    throw new InvalidHandlerError(
      `${where}: burst.max must be a whole number of at least 2 (the first message and the newest), got ${String(max)}`,
    );
  }
  if (mode === 'debounce') {
    if (ms === undefined || !Number.isSafeInteger(ms) || ms < 1) {
      throw new InvalidHandlerError(
        `${where}: burst 'debounce' needs ms, a whole number of milliseconds of at least 1: { mode: 'debounce', ms: 1500 }`,
      );
    }
  } else if (ms !== undefined) {
    throw new InvalidHandlerError(`${where}: burst.ms applies to 'debounce' only`);
  }
  if (mode === 'queue') return undefined;
  return { mode, ms: ms ?? 0, per, max };
}
