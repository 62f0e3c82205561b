import { type ClientRequest, type IncomingMessage, request } from 'node:http';

/** One block of a server-sent event stream (fields as received; `comment` for `:` lines). */
export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comment?: string;
}

/**
 * A minimal SSE reader over `node:http`, for tests that need control a browser `EventSource` does not
 * give: raw frames and comments, `Last-Event-ID`, pausing the socket, cutting the connection.
 */
export class SseClient {
  private buffer = '';
  private readonly queue: SseFrame[] = [];
  private waiter: (() => void) | undefined;
  /** True once the server ended the stream cleanly. */
  endedCleanly = false;
  /** Resolves when the response closes, however it closes. */
  readonly closed: Promise<void>;

  private constructor(
    /** The request, to destroy. */
    readonly req: ClientRequest,
    /** The answer, its headers and its socket. */
    readonly res: IncomingMessage,
  ) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => this.feed(chunk));
    res.on('end', () => {
      this.endedCleanly = true;
    });
    this.closed = new Promise((resolve) => {
      res.on('close', () => {
        this.wake();
        resolve();
      });
      res.on('error', () => resolve());
    });
  }

  /** Opens `url` with the bearer `token`; resolves once the response head arrived. */
  static open(url: string, token: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = request(url, {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...headers },
      });
      req.on('response', (res) => resolve(new SseClient(req, res)));
      req.on('error', reject);
      req.end();
    });
  }

  /** The answer's HTTP status. */
  get status(): number {
    return this.res.statusCode ?? 0;
  }

  /** The body of a non-stream answer (an error envelope). */
  async text(): Promise<string> {
    await this.closed;
    return this.buffer;
  }

  /** The next frame, waiting for it if needed; undefined if the stream closed first. */
  async next(): Promise<SseFrame | undefined> {
    for (;;) {
      const f = this.queue.shift();
      if (f) return f;
      if (this.res.closed || this.res.destroyed) return undefined;
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
    }
  }

  /** The next frame that is an event (skipping `retry:` blocks and comments). */
  async nextEvent(): Promise<SseFrame & { data: string; event: string; id: string }> {
    for (;;) {
      const f = await this.next();
      if (!f) throw new Error('the stream closed before the next event');
      if (f.event !== undefined && f.data !== undefined && f.id !== undefined) {
        return f as SseFrame & { data: string; event: string; id: string };
      }
    }
  }

  /** Frames received and not yet read. */
  get pending(): number {
    return this.queue.length;
  }

  /** Cuts the connection (a dropped client). */
  destroy(): void {
    this.req.destroy();
    this.res.destroy();
  }

  private feed(chunk: string): void {
    if ((this.res.headers['content-type'] ?? '') !== 'text/event-stream') {
      this.buffer += chunk;
      return;
    }
    this.buffer += chunk;
    let start = 0;
    let end = this.buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = this.buffer.slice(start, end);
      const frame: SseFrame = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) frame.comment = line.slice(1).trim();
        else {
          const i = line.indexOf(':');
          const field = line.slice(0, i) as keyof SseFrame;
          frame[field] = line.slice(i + 1).replace(/^ /, '');
        }
      }
      this.queue.push(frame);
      start = end + 2;
      end = this.buffer.indexOf('\n\n', start);
    }
    this.buffer = this.buffer.slice(start);
    this.wake();
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }
}
