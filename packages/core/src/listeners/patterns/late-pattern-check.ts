import { ServiceKey } from '../../kernel/services.js';
import { checkPatterns, type PatternCheckOptions } from './check-patterns.js';
import type { DeclaredPattern } from './verdict.js';

/**
 * The start-time check of regular expressions, for a class a run meets only after the start (an
 * answer class that a conversation's branch returns): the same checker, cache and refusal, once per
 * class. Until its patterns are known safe, nothing of the class runs on anyone's text.
 */
export class LatePatternCheck {
  private readonly passed = new WeakSet<object>();
  private readonly running = new WeakMap<object, Promise<void>>();

  /**
   * @param options - the bot's state directory and log, as at start
   * @param checkedAtStart - the classes the start checked already
   */
  constructor(
    private readonly options: PatternCheckOptions,
    checkedAtStart: Iterable<object>,
  ) {
    for (const owner of checkedAtStart) this.passed.add(owner);
  }

  /**
   * Resolves once the patterns of `owner` are known safe (at once for a class checked before);
   * rejects with `UnsafeRegexError` otherwise, and checks again at the next call (a vulnerable
   * verdict is cached on disk, so that costs a file read).
   *
   * @param owner - the class the patterns belong to
   * @param patterns - reads its patterns, when it was not checked yet
   */
  check(owner: object, patterns: () => readonly DeclaredPattern[]): Promise<void> {
    if (this.passed.has(owner)) return Promise.resolve();
    let running = this.running.get(owner);
    if (!running) {
      running = checkPatterns(patterns(), this.options)
        .then(() => void this.passed.add(owner))
        .finally(() => this.running.delete(owner));
      this.running.set(owner, running);
    }
    return running;
  }
}

/** Where the bot keeps its {@link LatePatternCheck}. */
export const LATE_PATTERN_CHECK = new ServiceKey<LatePatternCheck>('check of regular expressions met after start');
