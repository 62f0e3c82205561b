import type { IncomingMessage } from 'node:http';

/**
 * Most bytes of a refused body that are read and dropped before its `413` is sent. A client that
 * uploads more than this gets the answer and a closed connection, which it may see as a reset.
 */
export const DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * Reads and drops the rest of a request body, up to {@link DRAIN_BYTES}. A server that answers and
 * closes while the client is still uploading races the upload: the close resets the connection and
 * the client sees `EPIPE` instead of the answer. Drained first, the answer and the close are clean.
 * Resolves once the body ended, was cut at the bound, or the client left.
 */
export function drainBody(request: IncomingMessage): Promise<void> {
  if (request.complete || request.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let bytes = 0;
    const done = () => {
      request.off('data', onData);
      request.off('end', done);
      request.off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > DRAIN_BYTES) done();
    };
    request.on('data', onData);
    request.on('end', done);
    request.on('close', done);
    request.resume();
  });
}
