import type { IncomingMessage } from 'node:http';
import type { GatewayBodyReader, GatewayFetch, GatewayFetchResponse } from './fetch-types.js';

/**
 * The default `fetch` of the gateway: one GET over `node:http` (or `node:https`), answered with the
 * part of a fetch `Response` the client reads. The stream needs no more than that, and undici's
 * `fetch` would load its whole web stack (`fetch`, `WebSocket`, `EventSource`, caches, mock agents:
 * about 9 MB of a started bot's memory) for one long-lived request; Node's global `fetch` is a second,
 * bundled copy of undici and costs more still.
 *
 * Like `fetch` with `redirect: 'manual'`, a redirect is answered as it came (the client reports its
 * status) rather than followed with the bearer token to another URL.
 *
 * @param url - The stream URL (`http:` or `https:`).
 * @param init - The client's GET: headers and abort signal.
 */
export const nodeHttpFetch: GatewayFetch = (url, init) =>
  new Promise((resolve, reject) => {
    // `node:https` (TLS, about 1 MB) is loaded by the first https URL, not by a bot on plain http.
    const send = process.getBuiltinModule(url.startsWith('https:') ? 'node:https' : 'node:http').request;
    // `signal` aborts the request and, once answered, destroys the response, which fails a pending read.
    const req = send(url, { method: init.method, headers: init.headers, signal: init.signal }, (res) =>
      resolve(answer(url, res)),
    );
    req.once('error', reject);
    req.end();
  });

function answer(url: string, res: IncomingMessage): GatewayFetchResponse {
  return {
    status: res.statusCode ?? 0,
    url,
    redirected: false,
    headers: {
      get(name) {
        const value = res.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    body: { getReader: () => bodyReader(res) },
  };
}

/** A web-stream-like reader over the response: a cut mid-body (`aborted`) fails the pending read. */
function bodyReader(res: IncomingMessage): GatewayBodyReader {
  const chunks = res[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return {
    async read() {
      const next = await chunks.next();
      return next.done ? { done: true } : { done: false, value: next.value };
    },
    async cancel() {
      res.destroy();
    },
  };
}
