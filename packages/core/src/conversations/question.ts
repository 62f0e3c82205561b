import type { Class } from '../kernel/metadata.js';

/** What a question's `parse` returns to refuse an answer: made by {@link refuse}. */
export class AnswerRefusal {
  /** @param reason - said to the person before the question is asked again */
  constructor(readonly reason: string) {}
}

/**
 * Refuses an answer in a question's `parse`: the person is told `reason` and asked again.
 * @param reason - what is wrong with the answer and what to write instead
 * @example parse: (text) => (/^\d+$/.test(text) ? Number(text) : refuse('Please answer with a number.'))
 */
export function refuse(reason: string): AnswerRefusal {
  return new AnswerRefusal(reason);
}

/** A question whose answer is checked and turned into a value of type `T` by a function. */
export interface Question<T> {
  /** The question, as sent. */
  ask: string;
  /**
   * Turns the answer (the message's text, trimmed) into its value, or refuses it with
   * {@link refuse}. It must depend on the text only: the conversation keeps the texts, and runs it
   * again on them for `done` (and when a message is handled again).
   */
  parse: (text: string) => T | AnswerRefusal;
}

/**
 * A question whose answer is checked by an answer class: a class with one `@Option` property and
 * its class-validator constraints, as a command's options class. The answer (the message's text,
 * trimmed) is converted to the option's type and validated as a command option would be; a refused
 * answer is asked again with the problems.
 */
export interface ClassQuestion<T extends object> {
  /** The question, as sent. */
  ask: string;
  /** The answer class; the answer is an instance of it, its one `@Option` property set. */
  answer: Class<T>;
}

/** A question as it is asked: its text (any answer is taken, as text), or a checked question. */
export type AskedQuestion = string | Question<unknown> | ClassQuestion<object>;

/**
 * A question that depends on the answers before it: called with them (one per earlier question, in
 * order, each what `done` would get; undefined for a question that was skipped), it returns the
 * question to ask, or undefined to skip it. It must depend on those answers only: the conversation
 * keeps the texts and works the questions out again from them, in any process.
 *
 * @example (answers: [Age]) => (answers[0].years < 18 ? 'Who comes with you?' : undefined)
 */
export type Branch = {
  // A method's parameter is compared both ways, so a branch may declare what it reads: `([age]: [Age]) => …`.
  choose(answers: readonly unknown[]): AskedQuestion | undefined;
}['choose'];

/** One question of a conversation: asked as it is, or chosen by the answers so far ({@link Branch}). */
export type QuestionInput = AskedQuestion | Branch;

/** The answer `done` gets for an asked question. */
type AnswerOf<Q> = Q extends string
  ? string
  : Q extends { answer: Class<infer T> }
    ? T
    : Q extends Question<infer T>
      ? Exclude<T, AnswerRefusal>
      : never;

/**
 * The answers `done` gets for `questions`: the text for a plain question, what `parse` returned or
 * the answer class's instance for a checked one; for a {@link Branch}, the answer of any question it
 * returns, or undefined when it can skip.
 */
export type AnswersOf<Q extends readonly QuestionInput[]> = {
  -readonly [K in keyof Q]: Q[K] extends (answers: never) => infer R
    ? AnswerOf<Exclude<R, undefined>> | (undefined extends R ? undefined : never)
    : AnswerOf<Q[K]>;
};

/** The text of a question. */
export function questionText(question: AskedQuestion | undefined): string {
  if (question === undefined) return '';
  return typeof question === 'string' ? question : question.ask;
}
