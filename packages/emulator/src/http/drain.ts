import type { IncomingMessage } from 'node:http';

/**
 * Most bytes of a refused body that are read and dropped before its `413` is sent. A client that
 * uploads more than this gets the answer and a closed connection, which it may see as a reset.
 */
export const DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * Reads and drops the rest of a request body, up to `maxBytes`. A server that answers and closes
 * while the client is still uploading races the upload: the close resets the connection and the
 * client sees `EPIPE` instead of the answer. Drained first, the answer and the close are clean.
 *
 * @returns Whether the body was read to its end (false: it was cut at `maxBytes`, or the client left).
 */
export function drainBody(request: IncomingMessage, maxBytes = DRAIN_BYTES): Promise<boolean> {
  if (request.complete) return Promise.resolve(true);
  if (request.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let bytes = 0;
    const done = (whole: boolean) => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('close', onClose);
      resolve(whole);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) done(false);
    };
    const onEnd = () => done(true);
    const onClose = () => done(request.complete);
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('close', onClose);
    request.resume();
  });
}
