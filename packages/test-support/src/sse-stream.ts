import type { ServerResponse } from 'node:http';
import type { ReadyEvent } from '@boardbot/protocol';
import { message, ready } from './records.js';

// An event stream written the way the contract writes it, and the ways a server can break one.

/**
 * Starts an event-stream answer with the contract's headers.
 * @param res - the response
 * @param first - written at once (a `retry:` field by default)
 */
export function openStream(res: ServerResponse, first = 'retry: 1000\n\n'): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    'X-Accel-Buffering': 'no',
  });
  if (first) res.write(first);
}

/**
 * One SSE frame.
 * @param id - the event id
 * @param name - the event name
 * @param data - a string as is, anything else as JSON
 */
export function frame(id: number | string, name: string, data: unknown): string {
  return `id: ${id}\nevent: ${name}\ndata: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/**
 * A `message.create` frame carrying {@link message}(`seq`).
 * @param id - the event id
 * @param seq - the message's sequence number
 */
export function messageFrame(id: number, seq = id): string {
  return frame(id, 'message.create', { type: 'message.create', message: message(seq) });
}

/**
 * A `ready` frame carrying {@link ready}.
 * @param id - the event id
 * @param fields - fields of the event to set instead
 */
export function readyFrame(id: number | string, fields: Partial<ReadyEvent> = {}): string {
  return frame(id, 'ready', ready(fields));
}

/**
 * Writes `text`, then destroys the socket once it is flushed: the client sees the stream cut there.
 * @param res - the stream's response
 * @param text - the last bytes the client gets
 */
export function writeThenCut(res: ServerResponse, text: string): void {
  res.write(text, () => res.socket?.destroy());
}

/**
 * Writes `: keep-alive` every `ms` until the response closes, as a healthy server does.
 * @param res - the stream's response
 * @param ms - the interval
 */
export function keepAlive(res: ServerResponse, ms = 50): void {
  const timer = setInterval(() => res.write(': keep-alive\n\n'), ms);
  res.on('close', () => clearInterval(timer));
}
