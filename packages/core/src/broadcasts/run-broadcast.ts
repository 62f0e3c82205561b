import { setImmediate as yieldToHandlers } from 'node:timers/promises';
import type { App, Logger } from '@boardbot/protocol';
import { InvalidBroadcastError } from '../errors.js';
import { apiCodeOf } from '../kernel/api-code.js';
import type { Clock } from '../kernel/clock.js';
import type { BotRest } from '../kernel/ports.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { MetricsSink } from '../telemetry/metrics-sink.js';
import {
  type BroadcastBody,
  type BroadcastOptions,
  type BroadcastProgress,
  type BroadcastReport,
  type BroadcastTarget,
  DEFAULT_BROADCAST_OPTIONS,
} from './broadcast-options.js';
import { advanced, type BroadcastCursor, BroadcastRecord, fingerprintOf } from './broadcast-record.js';
import { sentBefore } from './sent-before.js';

/** What the broadcasts of a bot run on, read at each call. */
export interface BroadcastHost {
  rest: BotRest;
  log: Logger;
  clock: Clock;
  telemetry: { readonly metrics: MetricsSink | undefined };
  /** The bot's session store, where each broadcast's record is kept. */
  store(): SessionStore;
  /** The app, once the bot started. */
  app(): App;
  /** Where the bot is in its life: a broadcast runs only while it is `running`. */
  state(): string;
}

// Refusals that concern one board for good: the broadcast records them and goes on. Any other failure
// (the platform down past the client's retries, a revoked token, a message it refuses) ends the call,
// and calling it again resumes at that board.
const REFUSED_FOR_GOOD = new Set(['unknown_board', 'forbidden', 'idempotency_key_reused']);
const ID = /^[A-Za-z0-9._:-]{1,100}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Sends `body` to every board of `target`, one board at a time, recording after each board where the
 * broadcast stands (see {@link BroadcastRecord}), so that a call with the same id after a crash or a
 * cancellation resumes it and each board gets the message once. Each send carries the idempotency key
 * `broadcast:<id>:<board>` and waits its turn in the REST client's rate-limit queue, which lets calls go
 * in the order they came: with one send waiting at a time, a handler's answer waits behind at most one
 * of the broadcast's, and the broadcast yields to the event loop between boards.
 *
 * @param host - what it runs on
 * @param target - the boards
 * @param body - the message
 * @param options - its id, signal, progress callback and record life
 */
export async function runBroadcast(
  host: BroadcastHost,
  target: BroadcastTarget,
  body: BroadcastBody,
  options: BroadcastOptions,
): Promise<BroadcastReport> {
  const { id, signal, onProgress } = options;
  check(target, body, id);
  const keyLifeMs = options.keyLifeMs ?? DEFAULT_BROADCAST_OPTIONS.keyLifeMs;
  const now = () => host.clock.now();
  const record = new BroadcastRecord(host.store(), id, now, options.keepMs ?? DEFAULT_BROADCAST_OPTIONS.keepMs);
  const plan = await record.plan(fingerprintOf(body), () => boardsOf(host.rest, target), Array.isArray(target));
  const total = plan.boards.length;
  let { version, cursor } = await record.cursor(plan);
  const log = host.log.child({ broadcast: id });
  const firstDone = cursor.next;
  log.info({ total, done: firstDone }, firstDone === 0 ? 'broadcast started' : 'broadcast resumed');
  const sentAtStart = cursor.sent;
  let cancelled = false;
  while (cursor.next < total) {
    if (signal?.aborted) {
      cancelled = true;
      break;
    }
    const boardId = plan.boards[cursor.next] as string;
    let step: BroadcastCursor | undefined;
    if (cursor.since === undefined) {
      // Said before the send: a process that finds it set does not know whether the board has it.
      step = { ...cursor, since: now() };
    } else {
      let refused: string | undefined;
      // Past the key's life the platform may not recognise a second send: read the board back first.
      const doubtSince = now() - cursor.since >= keyLifeMs ? cursor.since : undefined;
      try {
        refused = await send(host, boardId, body, id, signal, doubtSince);
      } catch (error) {
        if (!signal?.aborted) throw error;
        cancelled = true;
        break;
      }
      step = advanced(cursor, boardId, refused, cursor.next + 1 < total ? now() : undefined);
      host.telemetry.metrics?.broadcast?.(refused === undefined ? 'sent' : 'failed', 1);
    }
    const written = await record.write(version, step);
    if (written === undefined) {
      // Another caller of the same id wrote first: go on from where it stands.
      ({ version, cursor } = await record.cursor(plan));
      continue;
    }
    const before = cursor;
    version = written;
    cursor = step;
    if (before.next === cursor.next) continue;
    const progress = progressOf(id, total, cursor);
    onProgress?.(progress);
    if (Math.floor((cursor.next * 10) / total) > Math.floor((before.next * 10) / total)) {
      log.info(progress, 'broadcast progress');
    }
    await yieldToHandlers();
  }
  const report: BroadcastReport = {
    ...progressOf(id, total, cursor),
    status: cancelled ? 'cancelled' : 'done',
    sentNow: cursor.sent - sentAtStart,
    failures: cursor.failures,
  };
  const { failures: _, ...line } = report;
  log.info(line, cancelled ? 'broadcast cancelled' : 'broadcast done');
  return report;
}

/**
 * Sends the message to one board, unless `doubtSince` is given and the board already shows it; the
 * contract's code when the platform refused that board for good.
 */
async function send(
  host: BroadcastHost,
  boardId: string,
  body: BroadcastBody,
  id: string,
  signal: AbortSignal | undefined,
  doubtSince: number | undefined,
): Promise<string | undefined> {
  try {
    if (
      doubtSince !== undefined &&
      (await sentBefore(host.rest, boardId, body, doubtSince, host.app().bot_user_id, signal))
    ) {
      return undefined;
    }
    await host.rest.sendMessage(boardId, body, { idempotencyKey: `broadcast:${id}:${boardId}`, signal });
    return undefined;
  } catch (error) {
    const code = apiCodeOf(error);
    if (typeof code === 'string' && REFUSED_FOR_GOOD.has(code)) return code;
    throw error;
  }
}

async function boardsOf(rest: BotRest, target: BroadcastTarget): Promise<readonly string[]> {
  if (Array.isArray(target)) return [...new Set(target as readonly string[])];
  const boards = await rest.listBoards();
  return (target === 'all' ? boards : boards.filter(target as Exclude<BroadcastTarget, 'all' | readonly string[]>)).map(
    (b) => b.id,
  );
}

function progressOf(id: string, total: number, c: BroadcastCursor): BroadcastProgress {
  return { id, total, done: c.next, sent: c.sent, failed: c.failed };
}

function check(target: BroadcastTarget, body: BroadcastBody, id: string): void {
  if (typeof id !== 'string' || !ID.test(id)) {
    throw new InvalidBroadcastError('its id must be 1 to 100 of A-Z a-z 0-9 . _ : - (give options.id)');
  }
  if (!body?.content && !body?.embeds?.length)
    throw new InvalidBroadcastError('the message has no content and no embeds');
  if ('replyTo' in body) throw new InvalidBroadcastError('a broadcast message cannot reply (replyTo names one board)');
  if (Array.isArray(target)) {
    const bad = (target as readonly unknown[]).find((b) => typeof b !== 'string' || !UUID.test(b));
    if (bad !== undefined) throw new InvalidBroadcastError(`${JSON.stringify(bad)} is not a board id (a UUID)`);
  } else if (target !== 'all' && typeof target !== 'function') {
    throw new InvalidBroadcastError("boards must be a list of board ids, 'all' or a filter function");
  }
}
