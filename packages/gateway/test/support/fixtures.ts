import type { ReadyEvent } from '@boardbot/protocol';
import { message, ready } from '@boardbot/test-support';

/** One SSE frame, as the contract writes it. */
export function frame(id: number | string, name: string, data: unknown): string {
  return `id: ${id}\nevent: ${name}\ndata: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** A `message.create` frame for message `seq` with event id `id`. */
export function messageFrame(id: number, seq = id): string {
  return frame(id, 'message.create', { type: 'message.create', message: message(seq) });
}

/** A `ready` frame. */
export function readyFrame(id: number | string, extra: Partial<ReadyEvent> = {}): string {
  return frame(id, 'ready', ready(extra));
}
