import type { Message } from '@boardbot/protocol';
import type { RequestOptions } from '@boardbot/rest';
import type { Clock } from '../kernel/clock.js';
import type { BotRest } from '../kernel/ports.js';
import type { HandlerRun } from '../kernel/scope.js';
import type { Services } from '../kernel/services.js';
import { SESSION_STORE } from '../sessions/service.js';
import { AnswerRecord } from './answer-record.js';
import { type AnswerTarget, streamAnswer } from './answer-stream.js';
import type { StreamedAnswer, StreamOptions, StreamSource } from './stream-options.js';

/** What a context lends its streams. */
export interface StreamHost {
  run: HandlerRun;
  rest: BotRest;
  clock: Clock;
  now: () => number;
  services: Services;
  /** The context's guarded write (refused once the run was abandoned). */
  write<T>(send: () => Promise<T>): Promise<T>;
}

/**
 * How a context whose answers are replies to `message` posts a streamed answer: the first part
 * through its own `reply` (the run's next key), the next ones as replies under their named keys.
 * @param host - the context's REST facade and request options
 * @param message - the message answered
 * @param reply - the context's reply
 */
export function replyTarget(
  host: { rest: BotRest; requestOptions: RequestOptions },
  message: Message,
  reply: (content: string) => Promise<Message>,
): AnswerTarget {
  const replyTo = message.id;
  return {
    first: reply,
    more: (content, idempotencyKey) =>
      host.rest.sendMessage(message.board_id, { content, replyTo }, { ...host.requestOptions, idempotencyKey }),
  };
}

/**
 * Streams one answer of a context (`ctx.stream`): its parts recorded in the bot's session store.
 * @param host - the context's run, REST facade, clock and services
 * @param target - how the context posts the answer's messages
 * @param index - the stream's number within the run
 * @param source - the text
 * @param options - throttle and bounds
 */
export function openStream(
  host: StreamHost,
  target: AnswerTarget,
  index: number,
  source: StreamSource,
  options: StreamOptions | undefined,
): Promise<StreamedAnswer> {
  const record = new AnswerRecord(host.services.get(SESSION_STORE), host.now);
  const { run, rest, clock } = host;
  return streamAnswer({ run, rest, clock, record, target, index, write: host.write }, source, options);
}
