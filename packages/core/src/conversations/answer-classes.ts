import { type Class, metadataKey, readMetadataList } from '../kernel/metadata.js';
import type { QuestionInput } from './question.js';

/** The answer classes of a conversation's questions, on its listener class: {@link Class}[]. */
export const ANSWER_CLASSES_KEY = metadataKey('answer-classes');

/**
 * Records on a conversation's listener the answer classes of its questions (those not behind a
 * branch, which only the answers choose), so that the bot's start finds them among its handlers:
 * their `@Matches` patterns meet a person's answers, and are checked before any is read.
 *
 * @param listener - the conversation's listener class
 * @param questions - its questions
 */
export function recordAnswerClasses(listener: Class, questions: readonly QuestionInput[]): void {
  const classes = questions.flatMap((q) => (typeof q === 'object' && 'answer' in q ? [q.answer] : []));
  Reflect.defineMetadata(ANSWER_CLASSES_KEY, [...new Set(classes)], listener);
}

/** The answer classes recorded on a handler class (none for any but a conversation's listener). */
export function answerClassesOf(handler: Class): readonly Class[] {
  return readMetadataList<Class>(ANSWER_CLASSES_KEY, handler);
}
