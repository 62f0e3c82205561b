import { validatorPatterns } from '../commands/options/validator-patterns.js';
import { answerClassesOf } from '../conversations/answer-classes.js';
import { methodsOf } from '../dispatch/explorer.js';
import type { Class } from '../kernel/metadata.js';
import type { Services } from '../kernel/services.js';
import { declaredPatterns, type PatternCheckOptions } from '../listeners/patterns/check-patterns.js';
import { LATE_PATTERN_CHECK, LatePatternCheck } from '../listeners/patterns/late-pattern-check.js';
import type { DeclaredPattern } from '../listeners/patterns/verdict.js';
import type { CheckedDefinition } from './define-bot.js';

/**
 * Every regular expression of the bot that a stranger's text reaches, for the start-time check:
 * its listeners' (a plugin's included), and the `@Matches` validators of its commands' options
 * classes (slash and text invocations alike) and of its conversations' answer classes. Here, where
 * every handler class is known, and each class once however many commands share it. Sets the bot's
 * {@link LatePatternCheck} for the classes a run meets later (an answer class a branch returns).
 *
 * @param checked - the bot's checked definition: its described handlers (the plugins' included), its
 *   command kind (whose routes name each options class) and its message listeners
 * @param services - where the late check is set
 * @param options - the bot's state directory and log
 */
export function patternsToCheck(
  { described, core, listeners }: CheckedDefinition,
  services: Services,
  options: PatternCheckOptions,
): DeclaredPattern[] {
  const classes = new Set<Class>();
  for (const handler of described) {
    for (const { route } of methodsOf(handler, core.commands)) if (route.optionsClass) classes.add(route.optionsClass);
    for (const answer of answerClassesOf(handler.cls)) classes.add(answer);
  }
  services.set(LATE_PATTERN_CHECK, new LatePatternCheck(options, classes));
  return [...declaredPatterns(listeners), ...[...classes].flatMap(validatorPatterns)];
}
