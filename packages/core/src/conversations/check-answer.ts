import { type DerivedOption, deriveOptions } from '../commands/options/derive-options.js';
import { parseOptions } from '../commands/options/parse-options.js';
import { InvalidHandlerError } from '../errors.js';
import type { Class } from '../kernel/metadata.js';
import { answerClassRefusal } from './conversation-texts.js';
import { AnswerRefusal, type AskedQuestion } from './question.js';
import type { AnswerClassVetting } from './vet-answer-class.js';

/** The one option of each answer class, derived once. */
const derivedOf = new WeakMap<Class, DerivedOption>();

/**
 * The one `@Option` of an answer class, derived as a command's options are.
 * @throws InvalidHandlerError when the class has no `@Option` property, or more than one
 * @throws InvalidOptionError / MissingMetadataError when the option cannot be derived
 */
export function answerOption(cls: Class): DerivedOption {
  const known = derivedOf.get(cls);
  if (known) return known;
  const derived = deriveOptions(cls);
  const [only] = derived;
  if (only === undefined || derived.length > 1) {
    throw new InvalidHandlerError(
      `Answer class ${cls.name} has ${derived.length} @Option properties: an answer is one message, give it exactly one`,
    );
  }
  derivedOf.set(cls, only);
  return only;
}

/**
 * The value of `text` as the answer to `question`, or its refusal: the text itself for a plain
 * question; what `parse` returns; or an instance of the answer class, converted and validated by
 * the code that checks a command's options (so an answer is refused as an option would be).
 *
 * @param question - the question asked
 * @param text - the answer, trimmed
 * @param vet - lets an answer class validate only once its patterns are known safe
 */
export async function checkAnswer(question: AskedQuestion, text: string, vet: AnswerClassVetting): Promise<unknown> {
  if (typeof question === 'string') return text;
  if ('parse' in question && question.parse !== undefined) return question.parse(text);
  if (!('answer' in question) || question.answer === undefined) return text;
  const derived = answerOption(question.answer);
  await vet(question.answer);
  const parsed = await parseOptions(question.answer, [derived], { [derived.option.name]: text });
  return parsed.ok ? parsed.value : new AnswerRefusal(answerClassRefusal(parsed.problems));
}
