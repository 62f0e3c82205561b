import { IsArray, IsInt, IsOptional, IsString } from 'class-validator';
import type { OpenScope } from '../kernel/scoped.js';
import type { MessageContext } from '../listeners/context.js';
import type { SessionHandle } from '../sessions/session-handle.js';

/** Where one person's conversation is, kept in the session store (per person on a board). */
export class ConversationState {
  /** The index of the question awaiting an answer; -1: no conversation. */
  @IsInt()
  step = -1;
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
}

/** Options of {@link defineConversation}. */
export interface ConversationOptions {
  /** Names the conversation in the session store; one of each name per person and board at a time. */
  name: string;
  /** The questions, asked one after the other; each next message of the person answers one. */
  questions: readonly string[];
  /**
   * Called with the answers once the last question is answered; what it returns is the reply.
   * @param ctx - the context of the last answer
   * @param answers - one per question, in order
   */
  done: (ctx: MessageContext, answers: string[]) => unknown;
  /** How long a question waits for its answer. @defaultValue 10 minutes */
  timeoutMs?: number;
  /** Said when an answer comes after the timeout (the conversation is over). @defaultValue a short note */
  timeoutReply?: string;
  /** Words that cancel the conversation, as the whole message. @defaultValue `['cancel']` */
  cancelWords?: readonly string[];
  /** Said when the person cancels. @defaultValue `'Cancelled.'` */
  cancelReply?: string;
}

/** A conversation opened for one person on one board. */
export interface ConversationHandle {
  /**
   * Starts (or restarts) the conversation and returns the first question, to reply with.
   * @param startedBy - the message that started it, if any (it is not taken as an answer)
   */
  start(startedBy?: string): Promise<string>;
  /** Whether a conversation is under way. */
  active(): Promise<boolean>;
  /** Ends the conversation without an answer. */
  cancel(): Promise<void>;
  /**
   * Takes the person's message as the answer to the current question, if a conversation is under
   * way: returns the next question, the timeout or cancel note, or `done`'s reply; else undefined.
   */
  resume(ctx: MessageContext): Promise<unknown>;
}

type Outcome = { kind: 'none' } | { kind: 'say'; text: string } | { kind: 'done'; answers: string[] };

/** The {@link ConversationHandle} of one run. */
export class ConversationHandleImpl implements ConversationHandle {
  /**
   * @param options - the conversation
   * @param session - its state, in the session store
   * @param scope - the run
   */
  constructor(
    private readonly options: Required<ConversationOptions>,
    private readonly session: SessionHandle<ConversationState>,
    private readonly scope: OpenScope,
  ) {}

  async start(startedBy?: string): Promise<string> {
    await this.session.update((s) => {
      Object.assign(s, { step: 0, answers: [], askedAt: this.scope.now(), startedBy });
    });
    return this.options.questions[0] ?? '';
  }

  async active(): Promise<boolean> {
    return (await this.session.get()).step >= 0;
  }

  cancel(): Promise<void> {
    return this.session.delete();
  }

  async resume(ctx: MessageContext): Promise<unknown> {
    const text = ctx.message.content;
    if (text === null || ctx.message.author === null) return undefined;
    const current = await this.session.get();
    if (current.step < 0 || current.startedBy === ctx.message.id) return undefined;
    let outcome: Outcome = { kind: 'none' };
    // One compare-and-set decides: two replicas (or a replay) cannot both take this answer.
    await this.session.update((s) => {
      outcome = this.advance(s, text.trim());
    });
    const decided = outcome as Outcome;
    if (decided.kind === 'none') return undefined;
    if (decided.kind === 'say') return decided.text;
    return this.options.done(ctx, decided.answers);
  }

  /** Applies one message to the state, and says what follows. */
  private advance(s: ConversationState, text: string): Outcome {
    const { questions, timeoutMs, timeoutReply, cancelWords, cancelReply } = this.options;
    if (s.step < 0) return { kind: 'none' };
    const now = this.scope.now();
    const end = (): void => {
      Object.assign(s, { step: -1, answers: [], askedAt: 0, startedBy: undefined });
    };
    if (now - s.askedAt > timeoutMs) {
      end();
      return { kind: 'say', text: timeoutReply };
    }
    if (cancelWords.some((w) => w.toLowerCase() === text.toLowerCase())) {
      end();
      return { kind: 'say', text: cancelReply };
    }
    const answers = [...s.answers, text];
    if (answers.length >= questions.length) {
      end();
      return { kind: 'done', answers };
    }
    Object.assign(s, { step: answers.length, answers, askedAt: now });
    return { kind: 'say', text: questions[answers.length] ?? '' };
  }
}
