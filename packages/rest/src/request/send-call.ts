import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

/** An answer read whole: its status, headers and (bounded) body as UTF-8. */
export interface ReadAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** What {@link sendCall} is told of an answer when its head arrives, before its body. */
export type OnAnswerHead = (statusCode: number, headers: IncomingHttpHeaders) => void;

/**
 * Most bytes of an answer's body kept for a status (`Infinity`: all of it). Past the bound the
 * request is aborted (the socket is closed) and the answer resolves with the bytes kept, so an
 * endless body cannot be buffered.
 */
export type BodyBound = (statusCode: number) => number;

/** Thrown where a call failed after its head arrived (the status is known, the body is not). */
export class BodyFailure extends Error {
  /**
   * @param statusCode - the answer's status
   * @param headers - the answer's headers
   * @param cause - what undici failed with
   */
  constructor(
    readonly statusCode: number,
    readonly headers: IncomingHttpHeaders,
    override readonly cause: unknown,
  ) {
    super('the answer failed after its head', { cause });
  }
}

/**
 * Sends one request and reads its answer whole, through undici's handler interface: the body's
 * chunks are kept as they come, with no stream and no promise per answer beyond the one returned.
 * `dispatcher.request()` makes a `Readable` per answer and consumes it through stream events,
 * which was most of the REST client's own cost for the small JSON answers of the API.
 *
 * Timeouts stay undici's (`headersTimeout`, `bodyTimeout` in `opts`); `signal` aborts the request
 * at any point and rejects with its reason, as `request()` does.
 *
 * @param dispatcher - where to send it
 * @param opts - the request (as for `dispatcher.request()`, without `signal`)
 * @param signal - the caller's abort signal
 * @param bound - how much of each status's body to keep
 * @param onHead - called when the head arrives (rate limit headers are read there)
 * @returns the answer; rejects with undici's error before the head, {@link BodyFailure} after it
 */
export function sendCall(
  dispatcher: Dispatcher,
  opts: Dispatcher.DispatchOptions,
  signal: AbortSignal | undefined,
  bound: BodyBound,
  onHead: OnAnswerHead,
): Promise<ReadAnswer> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let statusCode = 0;
    let headers: IncomingHttpHeaders = {};
    let limit = 0;
    let size = 0;
    let chunks: Buffer[] = [];
    let settled = false;
    const onAbort = () => controller?.abort(signal?.reason);
    const finish = (error: unknown, answer?: ReadAnswer) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      chunks = [];
      if (error === undefined) resolve(answer as ReadAnswer);
      // The caller's abort rejects with its reason, whatever undici made of it.
      else if (signal?.aborted) reject(signal.reason);
      else reject(statusCode === 0 ? error : new BodyFailure(statusCode, headers, error));
    };
    const done = () => {
      const text =
        chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8');
      finish(undefined, { statusCode, headers, text });
    };
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (signal?.aborted) c.abort(signal.reason);
      },
      onResponseStart(c, status, head) {
        // 1xx answers are informational: the real one follows.
        if (status < 200) return;
        statusCode = status;
        headers = head as IncomingHttpHeaders;
        limit = bound(status);
        try {
          onHead(status, headers);
        } catch (err) {
          c.abort(err as Error);
        }
      },
      onResponseData(c, chunk) {
        if (settled) return;
        const room = limit - size;
        if (room > 0) chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        size += chunk.length;
        if (size > limit && limit !== Number.POSITIVE_INFINITY) {
          // Resolved first: the abort's error that follows is then ignored.
          done();
          c.abort(new Error('the answer is longer than its bound'));
        }
      },
      onResponseEnd() {
        done();
      },
      onResponseError(_c, err) {
        finish(err);
      },
    };
    if (signal) {
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    try {
      dispatcher.dispatch(opts, handler);
    } catch (err) {
      finish(err);
    }
  });
}
