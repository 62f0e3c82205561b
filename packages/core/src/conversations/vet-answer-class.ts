import { validatorPatterns } from '../commands/options/validator-patterns.js';
import type { Class } from '../kernel/metadata.js';
import type { Services } from '../kernel/services.js';
import { LATE_PATTERN_CHECK } from '../listeners/patterns/late-pattern-check.js';

/** Resolves once an answer class may validate a person's text; rejects with `UnsafeRegexError` when it may not. */
export type AnswerClassVetting = (cls: Class) => Promise<void>;

/**
 * How a conversation vets an answer class before it validates an answer with it: the classes of
 * the questions were checked at start; one that only a branch returns is checked now, by the bot's
 * {@link LATE_PATTERN_CHECK}, before its `@Matches` patterns meet the answer.
 *
 * @param services - the bot's services
 */
export function answerClassVetting(services: Services): AnswerClassVetting {
  const late = services.get(LATE_PATTERN_CHECK);
  return (cls) => late.check(cls, () => validatorPatterns(cls));
}
