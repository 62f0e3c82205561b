import type { IncomingHttpHeaders } from 'node:http';
import { type LoopbackServer, type Received, startLoopbackServer } from '@boardbot/test-support';
import { request } from 'undici';

/** What the proxy does with one request. */
export type Fault =
  /** Forward it and pass the answer back. */
  | 'pass'
  /** Forward it, let the upstream commit it, then reset the client's connection instead of answering. */
  | 'reset-after-commit';

/** A loopback proxy in front of a real server that injects a fault chosen per request. */
export interface FaultProxy extends LoopbackServer {
  /** `<proxy origin>` + the upstream base path. */
  apiUrl: string;
  /** Statuses the upstream answered, in order. */
  upstreamStatuses: number[];
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'content-length']);

function forwardable(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * Starts a proxy on 127.0.0.1 port 0 that forwards to `upstreamApiUrl` and applies `choose(req, n)`.
 * @param upstreamApiUrl - e.g. the emulator's `apiUrl`
 * @param choose - the fault of the n-th request
 */
export async function startFaultProxy(
  upstreamApiUrl: string,
  choose: (req: Received, n: number) => Fault,
): Promise<FaultProxy> {
  const upstream = new URL(upstreamApiUrl);
  const upstreamStatuses: number[] = [];
  const server = await startLoopbackServer(async (req, res, n) => {
    const answer = await request(`${upstream.origin}${req.url}`, {
      method: req.method as 'GET',
      headers: forwardable(req.headers),
      body: req.body.length > 0 ? req.body : null,
    });
    const body = await answer.body.text();
    upstreamStatuses.push(answer.statusCode);
    if (choose(req, n) === 'reset-after-commit') {
      res.socket?.destroy();
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(answer.headers)) {
      if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    }
    res.writeHead(answer.statusCode, headers);
    res.end(body);
  });
  return { ...server, apiUrl: `${server.origin}${upstream.pathname}`, upstreamStatuses };
}
