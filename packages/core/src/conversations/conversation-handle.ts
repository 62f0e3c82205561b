import type { OpenScope } from '../kernel/scoped.js';
import { runText } from '../kernel/translate.js';
import type { MessageContext } from '../listeners/context.js';
import type { SessionHandle } from '../sessions/session-handle.js';
import { IDLE_RUN } from '../telemetry/idle-run.js';
import { checkAnswer } from './check-answer.js';
import { walkQuestions } from './conversation-path.js';
import type { ConversationEnd, ConversationOptions, ConversationState } from './conversation-state.js';
import { AnswerRefusal, type QuestionInput, questionText, said, type Translate } from './question.js';
import { type AnswerClassVetting, answerClassVetting } from './vet-answer-class.js';

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

/** The {@link ConversationHandle} of one run. */
export class ConversationHandleImpl implements ConversationHandle {
  private readonly vet: AnswerClassVetting;

  /**
   * @param options - the conversation
   * @param session - its state, in the session store
   * @param scope - the run
   */
  constructor(
    private readonly options: Required<ConversationOptions<readonly QuestionInput[]>>,
    private readonly session: SessionHandle<ConversationState>,
    private readonly scope: OpenScope,
  ) {
    this.vet = answerClassVetting(scope.services);
  }

  /** `ctx.t` of the run: a translated question is asked in the person's locale. */
  private readonly t: Translate = (key, values) => runText(this.scope.run, this.scope.services, key, values);

  async start(startedBy?: string): Promise<string> {
    await this.session.update((s) => {
      Object.assign(s, { step: 0, answers: [], askedAt: this.scope.now(), startedBy });
      Object.assign(s, { answeredBy: undefined, ended: undefined, refused: undefined, refusal: undefined });
    });
    return questionText((await walkQuestions(this.options.questions, [], this.vet)).question, this.t);
  }

  async active(): Promise<boolean> {
    return (await this.session.get()).step >= 0;
  }

  cancel(): Promise<void> {
    return this.session.delete();
  }

  async resume(ctx: MessageContext): Promise<unknown> {
    const text = ctx.message.content;
    const { id } = ctx.message;
    if (text === null || ctx.message.author === null) return this.noAnswer();
    const current = await this.session.get();
    if (current.startedBy === id) return this.noAnswer();
    // An ended conversation takes no answer, unless this very message ended it: handled again (after
    // a crash, or by a second instance), it must send the same reply again.
    if (current.step < 0 && current.answeredBy !== id) return this.noAnswer();
    // One compare-and-set decides: two replicas (or a replay) cannot both take this answer. On a
    // replay the callback does not run and update() resolves with what it wrote the first time, so
    // the reply is read from that value, never from variables the callback sets.
    const after = await this.session.update((s) => this.advance(s, text.trim(), id));
    return this.replyFor(ctx, after);
  }

  /** The message is no answer: the run did nothing, and its `handled` line is logged at debug. */
  private noAnswer(): undefined {
    this.scope.run.set(IDLE_RUN, true);
    return undefined;
  }

  /** The reply to `ctx`'s message once its update wrote `s`: none if another message took it. */
  private async replyFor(ctx: MessageContext, s: ConversationState): Promise<unknown> {
    const { questions, timeoutReply, cancelReply, triesReply, done } = this.options;
    if (s.answeredBy !== ctx.message.id) return undefined;
    if (s.step >= 0) {
      const question = questionText((await walkQuestions(questions, s.answers, this.vet)).question, this.t);
      return s.refusal === undefined ? question : ctx.t('boardbot:reask', { reason: s.refusal, question });
    }
    if (s.ended === 'timeout') return said(timeoutReply, this.t);
    if (s.ended === 'cancelled') return said(cancelReply, this.t);
    if (s.ended === 'refused') return said(triesReply, this.t);
    // Each answer is what its question made of its text, as `done`'s type (erased here) says.
    if (s.ended === 'done') return done(ctx, (await walkQuestions(questions, s.answers, this.vet)).values as string[]);
    return undefined;
  }

  /** Applies the message `id` to the state, when a conversation is under way. */
  private async advance(s: ConversationState, text: string, id: string): Promise<void> {
    const { questions, timeoutMs, cancelWords, maxTries } = this.options;
    // Checked again here, on the value the compare-and-set writes over: a start by this very message
    // (on another instance, say) may have landed since the read above.
    if (s.step < 0 || s.startedBy === id) return;
    const now = this.scope.now();
    // The answers stay only for `done`: no other end needs them to reply.
    const end = (ended: ConversationEnd, answers: string[] = []): void => {
      Object.assign(s, { step: -1, answers, askedAt: 0, startedBy: undefined, answeredBy: id, ended });
      Object.assign(s, { refused: undefined, refusal: undefined });
    };
    if (now - s.askedAt > timeoutMs) return end('timeout');
    if (cancelWords.some((w) => w.toLowerCase() === text.toLowerCase())) return end('cancelled');
    // The question awaiting this answer, worked out from the answers so far (the branches they took).
    const at = await walkQuestions(questions, s.answers, this.vet);
    const value = at.question === undefined ? undefined : await checkAnswer(at.question, text, this.vet);
    if (value instanceof AnswerRefusal) {
      const refused = (s.refused ?? 0) + 1;
      // Asked again (the question waits its full timeout once more), unless that was the last try.
      if (refused >= maxTries) end('refused');
      else Object.assign(s, { askedAt: now, answeredBy: id, refused, refusal: said(value.reason, this.t) });
      return;
    }
    const answers = [...s.answers.slice(0, at.taken), ...(at.question === undefined ? [] : [text])];
    const next = await walkQuestions(questions, answers, this.vet);
    if (next.question === undefined) return end('done', answers);
    Object.assign(s, { step: next.next, answers, askedAt: now, answeredBy: id });
    Object.assign(s, { refused: undefined, refusal: undefined });
  }
}
