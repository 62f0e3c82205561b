import { UnsafeRegexError } from '../../errors.js';
import type { MessageListenerMetadata } from '../metadata.js';
import { patternVerdicts, type VerdictOptions } from './pattern-verdicts.js';
import type { DeclaredPattern, PatternVerdict } from './verdict.js';

/** How long the checker may think about one pattern before its verdict is `unknown`. */
export const PATTERN_CHECK_TIMEOUT_MS = 5000;

/** Where the verdicts are kept, and how the check reports. */
export interface PatternCheckOptions extends Omit<VerdictOptions, 'timeoutMs'> {
  /** @defaultValue {@link PATTERN_CHECK_TIMEOUT_MS} */
  timeoutMs?: number;
}

/**
 * The regular expressions the listeners declare that the start-time check applies to: those run on
 * the JavaScript engine, without the author's `allowSlowRegex`.
 */
export function declaredPatterns(listeners: readonly MessageListenerMetadata[]): DeclaredPattern[] {
  return listeners.flatMap((l) =>
    l.pattern?.checked ? [{ regex: l.pattern.regex, where: l.pattern.options.where }] : [],
  );
}

/**
 * Checks regular expressions that a stranger's text reaches (listeners', validators') for
 * catastrophic backtracking, before the bot reads any message (see {@link patternVerdicts}). Throws
 * {@link UnsafeRegexError} naming every pattern found vulnerable, and every one the checker could not
 * decide (a timeout, a crash, a flag it does not know): neither runs on anyone's text. Does nothing
 * when there is no pattern to check.
 *
 * @param patterns - the expressions and where each is declared
 * @param options - the state directory, the log, the checker's time
 */
export async function checkPatterns(patterns: readonly DeclaredPattern[], options: PatternCheckOptions): Promise<void> {
  if (patterns.length === 0) return;
  const { stateDir, log, timeoutMs = PATTERN_CHECK_TIMEOUT_MS } = options;
  const verdicts = await patternVerdicts(
    patterns.map((p) => p.regex),
    { stateDir, log, timeoutMs },
  );
  const vulnerable: string[] = [];
  const undecided: string[] = [];
  patterns.forEach((pattern, i) => {
    const verdict = verdicts[i] as PatternVerdict;
    if (verdict.status === 'vulnerable') vulnerable.push(describeVulnerable(pattern, verdict));
    else if (verdict.status !== 'safe') undecided.push(describeUndecided(pattern, verdict));
  });
  if (vulnerable.length + undecided.length > 0)
    throw new UnsafeRegexError([...vulnerable, ...undecided], undecided.length);
}

function describeVulnerable({ regex, where }: DeclaredPattern, verdict: PatternVerdict): string {
  return (
    `${where}: ${String(regex)} takes ${verdict.complexity ?? 'super-linear'} time; ` +
    `an attack string looks like ${verdict.attack ?? 'unknown'}`
  );
}

function describeUndecided({ regex, where }: DeclaredPattern, verdict: PatternVerdict): string {
  const reason = verdict.reason ?? 'unknown';
  // recheck knows no `v` (unicodeSets): such a pattern stays undecided however often it is checked.
  const hint = regex.flags.includes('v')
    ? 'the checker does not know the v flag: write it with u if it means the same'
    : 'nothing was cached, the next start checks it again; a simpler pattern decides faster';
  return `${where}: ${String(regex)} could not be checked (${reason}): ${hint}`;
}
