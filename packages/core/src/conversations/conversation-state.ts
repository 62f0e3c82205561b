import { IsArray, IsIn, IsInt, IsOptional, IsString, Min } from '../kernel/class-validator.js';
import type { MessageContext } from '../listeners/context.js';
import type { AnswersOf, Ask, Branch, QuestionInput } from './question.js';

/**
 * How a conversation ended: its last answer, an answer after the timeout, a cancel word, or too
 * many refused answers to one question.
 */
export type ConversationEnd = 'done' | 'timeout' | 'cancelled' | 'refused';

/**
 * Where one person's conversation is, kept in the session store (per person on a board). A message
 * handled again reads what its answer made of it (see `answeredBy`), so the fields that say what to
 * reply stay until the next start: `ended`, and the answers of a finished one.
 */
export class ConversationState {
  /** The index of the question awaiting an answer; -1: no conversation. */
  @IsInt()
  step = -1;
  /**
   * The answers so far, as texts, in order (a question a branch skipped has none: which question
   * each answers is worked out again from them); once it ended with `done`, all of them.
   */
  @IsArray()
  @IsString({ each: true })
  answers: string[] = [];
  /** When the current question was asked (epoch ms). */
  @IsInt()
  askedAt = 0;
  /** The message that started it, which is not an answer. */
  @IsOptional()
  @IsString()
  startedBy?: string;
  /** The message whose answer made this state (absent in state stored before it was kept). */
  @IsOptional()
  @IsString()
  answeredBy?: string;
  /** How the conversation ended, when `step` is -1 because of an answer. */
  @IsOptional()
  @IsIn(['done', 'timeout', 'cancelled', 'refused'])
  ended?: ConversationEnd;
  /** Answers to the current question refused so far (absent: none). */
  @IsOptional()
  @IsInt()
  @Min(0)
  refused?: number;
  /** Why the last answer was refused, when it was: the reply says it before asking again. */
  @IsOptional()
  @IsString()
  refusal?: string;
}

/** Options of {@link defineConversation}. */
export interface ConversationOptions<Q extends readonly QuestionInput[] = readonly string[]> {
  /** Names the conversation in the session store; one of each name per person and board at a time. */
  name: string;
  /**
   * The questions, asked one after the other; each next message of the person answers one. A
   * question with a `parse` function or an answer class checks its answer, and asks again, with the
   * reason, when it refuses one. A function in the list ({@link Branch}) chooses its question from
   * the answers before it, or skips it.
   */
  questions: Q;
  /**
   * Called with the answers once the last question is answered; what it returns is the reply.
   * @param ctx - the context of the last answer
   * @param answers - one per question, in order: the text, what the question's `parse` returned, or
   * the answer class's instance; undefined for a question a branch skipped
   */
  done: (ctx: MessageContext, answers: AnswersOf<Q>) => unknown;
  /** How long a question waits for its answer. @defaultValue 10 minutes */
  timeoutMs?: number;
  /** Said when an answer comes after the timeout (the conversation is over); a text or a function of `t`, as `ask`. @defaultValue a short note */
  timeoutReply?: Ask;
  /** Words that cancel the conversation, as the whole message. @defaultValue `['cancel']` */
  cancelWords?: readonly string[];
  /** Said when the person cancels. @defaultValue `'Cancelled.'` */
  cancelReply?: Ask;
  /** How many answers to one question may be refused before the conversation ends. @defaultValue 3 */
  maxTries?: number;
  /** Said when the last try was refused too (the conversation is over). @defaultValue a short note */
  triesReply?: Ask;
}
