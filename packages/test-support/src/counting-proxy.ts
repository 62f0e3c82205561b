import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback proxy that counts the statuses of every answer it passes on, streams included. */
export interface CountingProxy {
  /** The proxy's origin plus the upstream's base path: give it to the bots as their API URL. */
  apiUrl: string;
  /** How many answers had each status. */
  statuses: Map<number, number>;
  /** The requests answered 429, as `METHOD path`. */
  limited: string[];
  close(): Promise<void>;
}

/**
 * Starts a proxy on 127.0.0.1 in front of `upstreamApiUrl` that forwards every request as it is and
 * streams the answer back (the gateway's event stream too), counting each status: what "0 × 429 on
 * the wire" is measured with.
 *
 * @param upstreamApiUrl - e.g. the emulator's API URL
 */
export async function startCountingProxy(upstreamApiUrl: string): Promise<CountingProxy> {
  const upstream = new URL(upstreamApiUrl);
  const statuses = new Map<number, number>();
  const limited: string[] = [];
  const server: Server = createServer((req, res) => {
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        const status = answer.statusCode ?? 0;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 429)
          limited.push(`${req.method} ${(req.url ?? '').replace(/interactions\/[^/?]+/, 'interactions/:token')}`);
        res.writeHead(status, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    res.on('close', () => forward.destroy());
    req.pipe(forward);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
    statuses,
    limited,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
