import type { Message } from '@boardbot/protocol';
import { ContextBase } from '../kernel/base-context.js';
import { toWireBody } from '../kernel/body.js';
import type { ReplyBody } from '../kernel/context.js';
import { RUNS } from '../policies/running-handlers.js';
import { SESSION_STORE } from '../sessions/service.js';
import { AnswerRecord } from './answer-record.js';
import { type AnswerTarget, streamAnswer } from './answer-stream.js';
import type { StreamedAnswer, StreamOptions, StreamSource } from './stream-options.js';

/**
 * The parts of a context that answers on a board (a message listener's, a slash or text command's):
 * its answers counted, `send`, and streamed answers. A kind says how a stream's messages are posted.
 */
export abstract class AnsweringContextImpl extends ContextBase {
  abstract readonly boardId: string;
  /** Answers sent so far: the kind counts each of its answers. */
  protected answers = 0;
  private streams = 0;

  get replied(): boolean {
    return this.answers > 0;
  }

  /** Answers sent so far (the runtime compares it around error hooks). */
  get answerCount(): number {
    return this.answers;
  }

  async send(body: ReplyBody): Promise<Message> {
    const wire = toWireBody(body);
    return this.write('send', () => this.rest.sendMessage(this.boardId, wire));
  }

  /** Streams an answer (see docs/assistants.md), posted the way the kind answers. */
  stream(source: StreamSource, options?: StreamOptions): Promise<StreamedAnswer> {
    // Its parts are recorded in the bot's session store, so the same event handled again finds them.
    const record = new AnswerRecord(this.services.get(SESSION_STORE), () => this.now());
    const write = <T>(send: () => Promise<T>) => this.write('stream', send);
    const { run, rest, clock } = this;
    const slots = this.services.get(RUNS);
    return streamAnswer(
      { run, rest, clock, record, target: this.streamTarget(), index: this.streams++, write, slots },
      source,
      options,
    );
  }

  /** How this kind posts a streamed answer's first message and the next ones. */
  protected abstract streamTarget(): AnswerTarget;
}
