import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request that went through the proxy. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** An answer the proxy gives itself instead of forwarding the request. */
export interface ProxyAnswer {
  status: number;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body: unknown;
}

/**
 * What the proxy does with one request: forward it (`undefined`), answer it itself (a
 * {@link ProxyAnswer}), or forward it, let the upstream answer (and so commit it), then reset the
 * client's connection instead of passing the answer on (`'reset-after-commit'`).
 */
export type RequestFault = ProxyAnswer | 'reset-after-commit' | undefined;

/**
 * A loopback HTTP proxy in front of a real server (the emulator) that produces the faults a network
 * does: it can cut every open connection and refuse new ones (dropped streams), answer chosen
 * requests itself, or lose an answer after the upstream committed the request. It records every
 * request it forwards, and the status of every upstream answer.
 */
export class HttpFaultProxy {
  /** Every request that reached the proxy while it let connections through, in order. */
  readonly seen: SeenRequest[] = [];
  /** The status of every answer the upstream gave, in order. */
  readonly upstreamStatuses: number[] = [];
  private blocked = false;
  private choose: (request: SeenRequest, n: number) => RequestFault = () => undefined;

  private constructor(
    private readonly server: Server,
    /** `http://127.0.0.1:<port>`, the proxy's origin. */
    readonly origin: string,
  ) {}

  /**
   * Starts a proxy on 127.0.0.1, port 0, that forwards every request as it is.
   * @param target - the upstream: its origin, or any URL of it (`emulator.listen()`'s `apiUrl`)
   */
  static async start(target: string): Promise<HttpFaultProxy> {
    const to = new URL(target);
    let proxy: HttpFaultProxy | undefined;
    const server = createServer((req, res) => {
      const p = proxy as HttpFaultProxy;
      if (p.blocked) {
        req.socket.destroy();
        return;
      }
      const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers };
      const fault = p.choose(seen, p.seen.push(seen) - 1);
      if (fault !== undefined && fault !== 'reset-after-commit') {
        req.resume();
        res.writeHead(fault.status, { 'content-type': 'application/json; charset=utf-8', ...fault.headers });
        res.end(JSON.stringify(fault.body));
        return;
      }
      const upstream = request(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
        (up) => {
          p.upstreamStatuses.push(up.statusCode ?? 0);
          if (fault === 'reset-after-commit') {
            // The whole answer has come back, so the upstream has done the work; the client never hears of it.
            up.resume();
            up.on('end', () => req.socket.destroy());
            return;
          }
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      res.on('close', () => upstream.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    proxy = new HttpFaultProxy(server, `http://127.0.0.1:${port}`);
    return proxy;
  }

  /** `<origin>/api/v1`: the app API's base URL through the proxy. */
  get apiUrl(): string {
    return `${this.origin}/api/v1`;
  }

  /**
   * Decides what happens to each request from now on.
   * @param choose - the fault of a request, given it and its index among the requests seen
   */
  faultWith(choose: (request: SeenRequest, n: number) => RequestFault): void {
    this.choose = choose;
  }

  /** Drops every open connection and refuses new ones until {@link HttpFaultProxy.restore}. */
  cut(): void {
    this.blocked = true;
    this.server.closeAllConnections();
  }

  /** Lets connections through again. */
  restore(): void {
    this.blocked = false;
  }

  /** Drops every connection and stops listening. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
