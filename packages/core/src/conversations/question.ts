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

/** A question whose answer is checked and turned into a value of type `T`. */
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

/** One question of a conversation: its text (any answer is taken, as text), or a checked {@link Question}. */
export type QuestionInput = string | Question<unknown>;

/** The answers `done` gets for `questions`: the text for a plain question, what `parse` returned for a checked one. */
export type AnswersOf<Q extends readonly QuestionInput[]> = {
  -readonly [K in keyof Q]: Q[K] extends Question<infer T> ? Exclude<T, AnswerRefusal> : string;
};

/** The text of a question. */
export function questionText(question: QuestionInput | undefined): string {
  if (question === undefined) return '';
  return typeof question === 'string' ? question : question.ask;
}

/** The value of an answer to `question`, or its refusal. */
export function parseAnswer(question: QuestionInput | undefined, text: string): unknown {
  return question === undefined || typeof question === 'string' ? text : question.parse(text);
}
