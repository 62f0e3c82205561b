import type { ServerResponse } from 'node:http';
import { type LoopbackServer, messageFrame, openStream, readyFrame, startLoopbackServer } from '@boardbot/test-support';

/**
 * A small stand-in for the platform's gateway with the contract's resume rules: an append-only log
 * of `message.create` events with ids 1, 2, 3...; a request with `Last-Event-ID: N` gets `ready`
 * (`resumed: true`), every event after N, then live events; one without gets `ready` (its id is the
 * head) and live events only.
 */
export interface EventLogServer extends LoopbackServer {
  /** Appends `count` events and pushes them to every open stream. */
  append(count: number): void;
  /** Events in the log. */
  readonly head: number;
}

/**
 * Starts the server on 127.0.0.1 and a free port.
 *
 * @param overlap - How many events before `Last-Event-ID` a resume replays again (an at-least-once
 *   server); 0 by default, as the contract says.
 */
export async function startEventLogServer(overlap: () => number = () => 0): Promise<EventLogServer> {
  const log: string[] = [];
  const live = new Set<ServerResponse>();
  const server = await startLoopbackServer((req, res) => {
    const header = req.headers['last-event-id'];
    const from = typeof header === 'string' && /^\d+$/.test(header) ? Number(header) : undefined;
    openStream(res, 'retry: 1\n\n');
    let text = readyFrame(from ?? log.length, { resumed: from !== undefined });
    const start = from === undefined ? log.length : Math.max(0, from - overlap());
    for (let i = start; i < log.length; i++) text += log[i];
    res.write(text);
    live.add(res);
    res.on('close', () => live.delete(res));
  });
  return {
    ...server,
    append(count) {
      let text = '';
      for (let i = 0; i < count; i++) {
        const id = log.length + 1;
        const f = messageFrame(id);
        log.push(f);
        text += f;
      }
      for (const res of live) res.write(text);
    },
    get head() {
      return log.length;
    },
  };
}
