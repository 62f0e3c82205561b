import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the scripted server received it, body read whole. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * Answers one request; `n` counts requests from 0. It may answer, leave `res` hanging, write an
 * event stream, or destroy the socket; `raw` is the request itself, for its socket.
 */
export type Script = (req: Received, res: ServerResponse, n: number, raw: IncomingMessage) => unknown;

/** A scripted HTTP server on 127.0.0.1 and a port the system chose, for fault injection. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `<origin>/api/v1`, the clients' base URL. */
  baseUrl: string;
  /** Every request received, in order. */
  received: Received[];
  /** Resolves when the server has received `n` requests in all. */
  waitForRequests(n: number): Promise<void>;
  /** Sockets currently open on the server side. */
  openSockets(): number;
  /** Destroys every socket and stops listening. */
  close(): Promise<void>;
}

/** Options of {@link startLoopbackServer}. */
export interface LoopbackServerOptions {
  /**
   * How long the server keeps an idle connection open between two requests. Longer than any test
   * by default, so a kept-alive connection never closes just as the client reuses it; a client's
   * pool drops an idle connection a little before this, so a test that counts the sockets left
   * behind by a client it cannot close the pool of wants it short.
   * @defaultValue 60000
   */
  keepAliveTimeoutMs?: number;
}

/**
 * Starts a server whose every answer is `script`'s: a 429 storm, a stall, a reset after commit, a
 * stream cut mid-frame...
 * @param script - answers each request, once its body has arrived
 * @param options - the keep-alive of idle connections
 */
export async function startLoopbackServer(
  script: Script,
  options: LoopbackServerOptions = {},
): Promise<LoopbackServer> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const n = received.push(r) - 1;
      for (const w of waiters.filter((w) => received.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      Promise.resolve(script(r, res, n, req)).catch((err: unknown) => {
        res.destroy(err as Error);
      });
    });
  });
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 60_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/api/v1`,
    received,
    waitForRequests(n) {
      if (received.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    openSockets: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
