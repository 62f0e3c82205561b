import type { Logger } from '@boardbot/protocol';
import type { PatternToCheck, PatternVerdict } from './verdict.js';
import { checkerVersion, decided, VerdictCache } from './verdict-cache.js';

/** Where the verdicts are kept, how long the checker may think, and where it reports. */
export interface VerdictOptions {
  /** The bot's state directory: verdicts are cached under `regex-checks/` there. */
  stateDir: string;
  log: Logger;
  /** How long the checker may think about one pattern. */
  timeoutMs: number;
}

/**
 * The flags the checker is given: the pattern's, without `d`. `d` (hasIndices) only adds the
 * groups' positions to a match, it changes nothing of what matches or how long it takes, and recheck
 * does not know it: checked with it, every such pattern would stay undecided.
 */
export function checkedFlags(flags: string): string {
  return flags.replace('d', '');
}

/**
 * The verdict on each expression, in order: read from the cache in the state directory, or decided
 * by recheck outside the bot's heap (loaded only then) and cached when it decided. A pattern it did
 * not decide (a timeout, a crash, a flag it does not know) gets an `unknown` verdict that is not
 * cached: the next start checks it again.
 *
 * @param regexes - the expressions to judge
 * @param options - the cache, the checker's time and the log
 */
export async function patternVerdicts(regexes: readonly RegExp[], options: VerdictOptions): Promise<PatternVerdict[]> {
  const checker = checkerVersion();
  const cache = new VerdictCache(options.stateDir);
  const keyed = regexes.map((regex) => {
    const flags = checkedFlags(regex.flags);
    return { hash: VerdictCache.key(checker, regex.source, flags), source: regex.source, flags };
  });
  const verdicts = new Map<string, PatternVerdict>();
  const unchecked = new Map<string, PatternToCheck>();
  for (const pattern of keyed) {
    const cached = await cache.get(pattern.hash);
    if (cached) verdicts.set(pattern.hash, cached);
    else unchecked.set(pattern.hash, pattern);
  }
  if (unchecked.size > 0) {
    options.log.info(
      { patterns: unchecked.size, checker },
      'checking regular expressions for catastrophic backtracking',
    );
    // Loaded here, not above: a bot whose verdicts are all cached (or that has no regular expression)
    // never reads the checker's modules.
    const { runChecker } = await import('./run-checker.js');
    for (const [hash, verdict] of await runChecker([...unchecked.values()], options.timeoutMs)) {
      verdicts.set(hash, verdict);
      if (!decided(verdict)) continue;
      await cache.set(hash, verdict).catch((error: unknown) => {
        options.log.warn({ err: error, state_dir: options.stateDir }, 'regular expression verdict not cached');
      });
    }
  }
  return keyed.map(({ hash }) => verdicts.get(hash) ?? { status: 'unknown', reason: 'not checked' });
}
