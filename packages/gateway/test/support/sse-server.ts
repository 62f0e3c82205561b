import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { onCleanup } from './helpers.js';

/** One request the scripted server received. */
export interface SeenRequest {
  url: string;
  headers: IncomingMessage['headers'];
}

/** Answers one gateway request; `n` counts requests from 0. */
export type SseHandler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

/** A scripted loopback HTTP server for the gateway, on 127.0.0.1 and a free port. */
export interface SseServer {
  /** The `baseUrl` to give the client (`http://127.0.0.1:<port>/api/v1`). */
  baseUrl: string;
  requests: SeenRequest[];
  /** Resolves when the server has received `n` requests in all. */
  waitForRequests(n: number): Promise<void>;
  /** Destroys every socket and stops listening. */
  close(): Promise<void>;
}

/** Starts an event-stream response with the contract's headers. */
export function openStream(res: ServerResponse, first = 'retry: 1000\n\n'): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    'X-Accel-Buffering': 'no',
  });
  if (first) res.write(first);
}

/** Answers with the contract's error envelope. */
export function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify({ error: { code, message: `${code} (test server)` } }));
}

/**
 * Starts a server that hands every request to `handler`.
 *
 * @param handler - Answers each request.
 */
export async function startSseServer(handler: SseHandler): Promise<SseServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const server = createServer((req, res) => {
    const n = requests.length;
    requests.push({ url: req.url ?? '', headers: req.headers });
    for (const w of [...waiters]) {
      if (requests.length >= w.n) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
    handler(req, res, n);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    requests,
    waitForRequests(n) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Starts a scripted server that is closed after the current test.
 *
 * @param handler - Answers each request.
 */
export async function server(handler: SseHandler): Promise<SseServer> {
  const s = await startSseServer(handler);
  onCleanup(() => s.close());
  return s;
}

/** Writes `text`, then destroys the socket once it is flushed: the client sees the stream cut there. */
export function writeThenCut(res: ServerResponse, text: string): void {
  res.write(text, () => res.socket?.destroy());
}

/** Writes `: keep-alive` every `ms` until the response closes, like a healthy server. */
export function keepAlive(res: ServerResponse, ms = 50): void {
  const timer = setInterval(() => res.write(': keep-alive\n\n'), ms);
  res.on('close', () => clearInterval(timer));
}
