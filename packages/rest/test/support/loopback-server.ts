import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the scripted server received it. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers one request; `n` counts requests from 0. May leave `res` hanging or destroy the socket. */
export type Script = (req: Received, res: ServerResponse, n: number, raw: IncomingMessage) => unknown;

/** A scripted HTTP server on 127.0.0.1, port 0, for fault injection. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `<origin>/api/v1`, the client's base URL. */
  baseUrl: string;
  /** Every request received, in order. */
  received: Received[];
  /** Sockets currently open on the server side. */
  openSockets(): number;
  /** Closes every socket and the server. */
  close(): Promise<void>;
}

/**
 * Starts a server whose every answer is `script`'s: a 429 storm, a stall, a reset after commit...
 * @param script - answers each request
 */
export async function startLoopbackServer(script: Script): Promise<LoopbackServer> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
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
      Promise.resolve(script(r, res, n, req)).catch((err: unknown) => {
        res.destroy(err as Error);
      });
    });
  });
  server.keepAliveTimeout = 60_000;
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
    openSockets: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Rate-limit headers as the contract sends them (reset in delta seconds, 3 decimals). */
export function rateLimitHeaders(limit: number, remaining: number, resetSeconds: number): Record<string, string> {
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': resetSeconds.toFixed(3),
  };
}

/**
 * Sends a JSON answer.
 * @param res - the response
 * @param status - HTTP status
 * @param body - serialised as JSON
 * @param headers - extra headers
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** An error envelope of the contract. */
export function envelope(code: string, message = code, extra: Record<string, unknown> = {}): unknown {
  return { error: { code, message, ...extra } };
}
