import type { Logger } from '@boardbot/protocol';
import { UnsafeRegexError } from '../../errors.js';
import type { MessageListenerMetadata } from '../metadata.js';
import type { MessagePattern } from './message-pattern.js';
import type { PatternToCheck, PatternVerdict } from './verdict.js';
import { checkerVersion, VerdictCache } from './verdict-cache.js';

/** How long the checker may think about one pattern before its verdict is `unknown`. */
export const PATTERN_CHECK_TIMEOUT_MS = 5000;

/** Where the verdicts are kept, and how the check reports. */
export interface PatternCheckOptions {
  /** The bot's state directory: verdicts are cached under `regex-checks/` there. */
  stateDir: string;
  log: Logger;
  /** @defaultValue {@link PATTERN_CHECK_TIMEOUT_MS} */
  timeoutMs?: number;
}

/** The regular expressions the listeners declare that the start-time check applies to. */
export function declaredPatterns(listeners: readonly MessageListenerMetadata[]): MessagePattern[] {
  return listeners.flatMap((l) => (l.pattern?.checked ? [l.pattern] : []));
}

/**
 * Checks the listeners' regular expressions for catastrophic backtracking, before the bot reads any
 * message: cached verdicts are read from the state directory; the others are decided by recheck
 * outside the bot's heap (its native build in a process of its own, else a worker thread; loaded only
 * then) and cached. Throws {@link UnsafeRegexError} for every vulnerable
 * pattern; warns about those it could not decide. Does nothing when there is no pattern to check.
 *
 * @param patterns - from {@link declaredPatterns}
 */
export async function checkPatterns(patterns: readonly MessagePattern[], options: PatternCheckOptions): Promise<void> {
  if (patterns.length === 0) return;
  const checker = checkerVersion();
  const cache = new VerdictCache(options.stateDir);
  const keyed = patterns.map((pattern) => ({
    pattern,
    hash: VerdictCache.key(checker, pattern.regex.source, pattern.regex.flags),
  }));
  const verdicts = new Map<string, PatternVerdict>();
  const unchecked = new Map<string, PatternToCheck>();
  for (const { pattern, hash } of keyed) {
    const cached = await cache.get(hash);
    if (cached) verdicts.set(hash, cached);
    else unchecked.set(hash, { hash, source: pattern.regex.source, flags: pattern.regex.flags });
  }
  if (unchecked.size > 0) {
    options.log.info(
      { patterns: unchecked.size, checker },
      'checking regular expressions for catastrophic backtracking',
    );
    // Loaded here, not above: a bot whose verdicts are all cached (or that has no regular expression)
    // never reads the checker's modules.
    const { runChecker } = await import('./run-checker.js');
    const fresh = await runChecker([...unchecked.values()], options.timeoutMs ?? PATTERN_CHECK_TIMEOUT_MS);
    for (const [hash, verdict] of fresh) {
      verdicts.set(hash, verdict);
      await cache.set(hash, verdict).catch((error: unknown) => {
        options.log.warn({ err: error, state_dir: options.stateDir }, 'regular expression verdict not cached');
      });
    }
  }
  const problems: string[] = [];
  for (const { pattern, hash } of keyed) {
    const verdict = verdicts.get(hash);
    const { where } = pattern.options;
    if (verdict?.status === 'vulnerable') problems.push(describeProblem(pattern, verdict));
    else if (verdict?.status !== 'safe') {
      options.log.warn(
        { handler: where, pattern: String(pattern.regex), reason: verdict?.reason },
        "regular expression not checked for catastrophic backtracking (the checker could not decide): make it simpler, or give { engine: 're2' }",
      );
    }
  }
  if (problems.length > 0) throw new UnsafeRegexError(problems);
}

function describeProblem(pattern: MessagePattern, verdict: PatternVerdict): string {
  return (
    `${pattern.options.where}: ${String(pattern.regex)} takes ${verdict.complexity ?? 'super-linear'} time; ` +
    `an attack string looks like ${verdict.attack ?? 'unknown'}`
  );
}
