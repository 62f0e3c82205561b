import { checkAnswer } from './check-answer.js';
import { AnswerRefusal, type AskedQuestion, type QuestionInput } from './question.js';
import type { AnswerClassVetting } from './vet-answer-class.js';

/** Where a conversation stands, worked out from the answers it took. */
export interface ConversationPath {
  /** One per question up to `next`: its answer's value; undefined for a skipped question. */
  values: unknown[];
  /** How many of the answer texts were taken (the rest no longer fit: see {@link walkQuestions}). */
  taken: number;
  /** The index of the question awaiting an answer; the number of questions once all are answered. */
  next: number;
  /** That question, as asked; undefined once all are answered. */
  question: AskedQuestion | undefined;
}

/**
 * Walks the questions with the answer texts taken so far, in order: each branch is called with the
 * values before it, and a question it skips takes no text. The state keeps only the texts, so any
 * process, before or after a restart, finds the same path (branches and `parse` depend on the
 * answers alone). A text the question now refuses (the bot changed since it was taken) stops the
 * walk there: that question is asked again.
 *
 * @param questions - the conversation's questions
 * @param texts - the answer texts taken so far
 * @param vet - lets an answer class validate only once its patterns are known safe
 */
export async function walkQuestions(
  questions: readonly QuestionInput[],
  texts: readonly string[],
  vet: AnswerClassVetting,
): Promise<ConversationPath> {
  const values: unknown[] = [];
  let taken = 0;
  for (const [index, input] of questions.entries()) {
    const question = typeof input === 'function' ? input([...values]) : input;
    if (question === undefined) {
      values.push(undefined);
      continue;
    }
    const text = texts[taken];
    if (text === undefined) return { values, taken, next: index, question };
    const value = await checkAnswer(question, text, vet);
    if (value instanceof AnswerRefusal) return { values, taken, next: index, question };
    values.push(value);
    taken++;
  }
  return { values, taken, next: questions.length, question: undefined };
}
