import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

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
  body: unknown;
}

/**
 * A loopback HTTP proxy in front of the emulator that can cut every open connection and refuse new
 * ones, to produce real dropped streams, and answer chosen requests itself; it also records request
 * headers.
 */
export class FaultProxy {
  readonly seen: SeenRequest[] = [];
  private readonly sockets = new Set<Socket>();
  private blocked = false;
  private answer: ((request: SeenRequest) => ProxyAnswer | undefined) | undefined;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  /** Starts a proxy to `target` (an origin such as `http://127.0.0.1:1234`) on 127.0.0.1, port 0. */
  static async start(target: string): Promise<FaultProxy> {
    const to = new URL(target);
    let proxy: FaultProxy | undefined;
    const server = createServer((req, res) => {
      const p = proxy as FaultProxy;
      if (p.blocked) {
        req.socket.destroy();
        return;
      }
      const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers };
      p.seen.push(seen);
      const own = p.answer?.(seen);
      if (own) {
        req.resume();
        const text = JSON.stringify(own.body);
        res.writeHead(own.status, { 'content-type': 'application/json; charset=utf-8', ...own.headers });
        res.end(text);
        return;
      }
      const upstream = request(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      res.on('close', () => upstream.destroy());
      req.pipe(upstream);
    });
    server.on('connection', (socket) => {
      const p = proxy as FaultProxy;
      p.sockets.add(socket);
      socket.on('close', () => p.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    proxy = new FaultProxy(server, `http://127.0.0.1:${port}`);
    return proxy;
  }

  /** Drops every open connection and refuses new ones until {@link FaultProxy.restore}. */
  cut(): void {
    this.blocked = true;
    for (const s of this.sockets) s.destroy();
  }

  /**
   * Answers the requests `answer` returns something for, instead of forwarding them.
   * @param answer - the proxy's own answer to a request, or undefined to forward it
   */
  answerWith(answer: (request: SeenRequest) => ProxyAnswer | undefined): void {
    this.answer = answer;
  }

  /** Lets connections through again. */
  restore(): void {
    this.blocked = false;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
