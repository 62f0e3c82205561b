import type { ServerResponse } from 'node:http';
import type { ReadyEvent } from '@boardbot/protocol';
import type { HubMember } from '../gateway/hub.js';
import { frame, startEventStream } from '../gateway/sse-stream.js';
import type { Platform } from '../platform/platform.js';
import { type AppRow, toApp } from '../store/apps.js';

// Events read per query while replaying; between pages the replay waits for the socket to drain,
// so a long replay never buffers the whole log in memory.
const REPLAY_PAGE = 500;

/** Where a new stream starts: its cursor (the ready frame's id) and the ready frame's flags. */
export interface StreamStart {
  cursor: number;
  resumed: boolean;
  gap: boolean;
}

/**
 * Decides where a stream starts. CONTRACT: with `Last-Event-ID: N`, every retained event with id > N
 * is replayed (`resumed: true`); if N is older than what is retained, `resumed: false, gap: true`
 * and the stream goes live. An N above the app's last id (a reset or another emulator's id) is a gap
 * too: the client's view cannot be trusted, and it should backfill.
 */
export function streamStart(app: AppRow, lastId: number, lastEventId: number | undefined): StreamStart {
  if (lastEventId === undefined) return { cursor: lastId, resumed: false, gap: false };
  if (lastEventId < app.pruned_through || lastEventId > lastId) {
    return { cursor: lastId, resumed: false, gap: true };
  }
  return { cursor: lastEventId, resumed: true, gap: false };
}

/** `Last-Event-ID` as a number, or undefined when absent or not a decimal. */
export function parseLastEventId(header: string | string[] | undefined): number | undefined {
  if (typeof header !== 'string' || !/^\d{1,15}$/.test(header.trim())) return undefined;
  return Number(header.trim());
}

async function replay(p: Platform, member: HubMember, appId: string, from: number): Promise<void> {
  let cursor = from;
  for (;;) {
    if (member.stream.isClosed) return;
    // Only committed events: the ones of the batch being written are pushed live when it commits.
    const rows = p.store.events.after(appId, cursor, REPLAY_PAGE, p.store.lastEventId(appId));
    for (const r of rows) {
      member.stream.write(frame(r.id, r.name, p.replayData(r.name, r.data)));
      cursor = r.id;
    }
    if (rows.length < REPLAY_PAGE) {
      // Same tick as the read that found the end of the log: any later event is pushed live, and
      // none can fall between the two (the store is synchronous, and this code is single-threaded).
      member.replaying = false;
      return;
    }
    await member.stream.drained();
  }
}

/**
 * Starts a gateway stream on a hijacked response: headers, `retry: 1000`, the `ready` frame, then the
 * replay (if resuming) and live events. The ready frame's id is the stream's cursor (the resumed
 * `Last-Event-ID`, or the app's latest event id), so every frame that follows has a greater id.
 *
 * @param headers - Headers already set on the reply (the rate-limit headers).
 */
export function openGatewayStream(
  p: Platform,
  res: ServerResponse,
  appId: string,
  lastEventId: number | undefined,
  headers: Record<string, string>,
  keepAliveMs: number,
): void {
  const app = p.store.apps.byId(appId) as AppRow;
  const start = streamStart(app, p.store.lastEventId(app.id), lastEventId);
  if (!startEventStream(res, headers)) return;
  const ready: ReadyEvent = {
    type: 'ready',
    app: toApp(app),
    board_ids: p.store.boards.idsOfUser(app.bot_user_id),
    resumed: start.resumed,
    gap: start.gap,
  };
  const options = { keepAliveMs, bufferBytes: p.limits.streamBufferBytes, logger: p.logger };
  const readyFrame = frame(start.cursor, 'ready', JSON.stringify(ready));
  const member = p.gateway.open(app.id, res, options, readyFrame, start.resumed);
  if (start.resumed) void replay(p, member, app.id, start.cursor);
}
