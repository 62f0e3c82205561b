import type { TranslateValues } from '../kernel/context.js';
import type { Class } from '../kernel/metadata.js';

/** `ctx.t` of the person asked: a key of the bot's i18n resources, in their locale. */
export type Translate = (key: string, values?: TranslateValues) => string;

/**
 * A question's words: the text itself, or a function of `t` that says it in the person's locale
 * (`(t) => t('signup.name')`), called each time the question is asked, so a French person is asked
 * in French. Without i18n, `t` knows only the runtime's own texts.
 */
export type Ask = string | ((t: Translate) => string);

/** What a question's `parse` returns to refuse an answer: made by {@link refuse}. */
export class AnswerRefusal {
  /** @param reason - said to the person before the question is asked again (or a function of `t`) */
  constructor(readonly reason: Ask) {}
}

/**
 * Refuses an answer in a question's `parse`: the person is told `reason` and asked again.
 * @param reason - what is wrong with the answer and what to write instead; a function of `t` says
 *   it in the person's locale
 * @example parse: (text) => (/^\d+$/.test(text) ? Number(text) : refuse('Please answer with a number.'))
 * @example parse: (text) => (/^\d+$/.test(text) ? Number(text) : refuse((t) => t('signup.number')))
 */
export function refuse(reason: Ask): AnswerRefusal {
  return new AnswerRefusal(reason);
}

/** A question whose answer is checked and turned into a value of type `T` by a function. */
export interface Question<T> {
  /** The question, as sent (or a function of `t`, for a translated question). */
  ask: Ask;
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
  /** The question, as sent (or a function of `t`, for a translated question). */
  ask: Ask;
  /** The answer class; the answer is an instance of it, its one `@Option` property set. */
  answer: Class<T>;
}

/**
 * A question whose answer is taken as it is, as text, like a question given as a string: the form
 * for a translated one (`{ ask: (t) => t('signup.team') }`).
 */
export interface TextQuestion {
  /** The question, as sent (or a function of `t`, for a translated question). */
  ask: Ask;
  /** None: the answer is taken as text (a `parse` makes it a {@link Question}). */
  parse?: never;
  /** None: the answer is taken as text (an `answer` class makes it a {@link ClassQuestion}). */
  answer?: never;
}

/** A question as it is asked: its text (any answer is taken, as text), or a question object. */
export type AskedQuestion = string | TextQuestion | Question<unknown> | ClassQuestion<object>;

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
type AnswerOf<Q> = Q extends string | TextQuestion
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

/**
 * The text of a question, in the locale of the person asked.
 * @param question - the question
 * @param t - `ctx.t` of the run that asks it
 */
export function questionText(question: AskedQuestion | undefined, t: Translate): string {
  if (question === undefined) return '';
  return said(typeof question === 'string' ? question : question.ask, t);
}

/**
 * Words as said to the person: the text, or what the function of `t` makes of it.
 * @param words - a text, or a function of `t`
 * @param t - `ctx.t` of the run that says them
 */
export function said(words: Ask, t: Translate): string {
  return typeof words === 'function' ? words(t) : words;
}
