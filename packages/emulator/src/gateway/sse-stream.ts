import type { ServerResponse } from 'node:http';
import type { Logger } from '@boardbot/protocol';
import { SECURITY_HEADERS } from '../security-headers.js';

/** Settings of one server-sent event stream. */
export interface SseStreamOptions {
  /** Interval of the `: keep-alive` comment when nothing else was written. */
  keepAliveMs: number;
  /** Queued bytes past which a live stream is dropped as a slow consumer. */
  bufferBytes: number;
  logger: Logger;
  /** Called once when the stream ends, whoever ended it. */
  onClose: () => void;
}

/** The head of every event stream (CONTRACT: `text/event-stream`, never cached, never buffered). */
export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  'X-Accel-Buffering': 'no',
} as const;

/**
 * Writes the head of an event stream on a hijacked response. A `HEAD` request ends there: it gets
 * the head a `GET` would, and a stream opened for it would never be read nor closed.
 *
 * @param headers - Headers already set on the reply (the rate-limit headers).
 * @returns whether the response goes on as a stream.
 */
export function startEventStream(res: ServerResponse, headers: Record<string, string> = {}): boolean {
  res.writeHead(200, { ...SECURITY_HEADERS, ...headers, ...SSE_HEADERS });
  if (res.req.method === 'HEAD') {
    res.end();
    return false;
  }
  res.socket?.setNoDelay(true);
  return true;
}

/** The frame text of one event (CONTRACT: `id:`, `event:` and one `data:` line of JSON). */
export function frame(id: number, name: string, data: string): string {
  return `id: ${id}\nevent: ${name}\ndata: ${data}\n\n`;
}

/**
 * One open `text/event-stream` response: writes frames, sends a keep-alive comment when idle, and
 * drops itself when its client stops reading (its socket buffer passes `bufferBytes`), so one slow
 * consumer never holds memory or delays the others. A dropped client reconnects and resumes.
 */
export class SseStream {
  private closed = false;
  // CONTRACT: no silence on the stream exceeds the keep-alive interval. One timer, restarted by
  // every write, fires `keepAliveMs` after the last byte (a fixed period that skips a tick after a
  // frame would leave up to twice the interval).
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly res: ServerResponse,
    private readonly options: SseStreamOptions,
  ) {
    this.timer = setTimeout(() => this.keepAlive(), options.keepAliveMs);
    this.timer.unref();
    res.on('close', () => this.finish());
    res.on('error', () => this.finish());
  }

  /** Whether the stream has ended. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Writes text or encoded frames; returns false when the socket buffer is full (wait for `drain`). */
  write(chunk: string | Uint8Array): boolean {
    if (this.closed) return false;
    this.timer.refresh();
    return this.res.write(chunk);
  }

  /** Writes live frames, dropping the stream if its client has fallen too far behind. */
  push(chunk: string | Uint8Array): void {
    if (this.closed) return;
    if (this.res.writableLength > this.options.bufferBytes) {
      this.options.logger.warn(
        { queuedBytes: this.res.writableLength },
        'gateway: dropping a slow stream (its client stopped reading); it can resume with Last-Event-ID',
      );
      this.res.destroy();
      this.finish();
      return;
    }
    this.write(chunk);
  }

  /** Resolves when the socket buffer drained, or the stream ended. */
  drained(): Promise<void> {
    if (this.closed || this.res.writableLength === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  /** Ends the stream cleanly (the client sees the end and reconnects with back-off). */
  end(): void {
    if (this.closed) return;
    this.res.end();
    this.finish();
  }

  private keepAlive(): void {
    // CONTRACT: `: keep-alive` when idle, so that no silence exceeds 15 s (configurable).
    this.write(': keep-alive\n\n');
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    this.options.onClose();
  }
}
