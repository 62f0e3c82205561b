import { type AddressInfo, createServer, type Socket, connect as tcpConnect } from 'node:net';

/** What the proxy does to one connection, counted in bytes from the server to the client. */
export interface TcpFault {
  /** Forward this many bytes, then destroy both sides (a cut, usually mid-frame). */
  cutAfterBytes?: number;
  /** Forward this many bytes, then forward nothing more and keep both sockets open (no FIN). */
  stallAfterBytes?: number;
}

/**
 * A loopback TCP proxy that injects faults into the server-to-client direction, counted in raw bytes
 * (headers and chunk framing included), so a cut can fall anywhere in a frame.
 */
export interface TcpFaultProxy {
  /** `http://127.0.0.1:<port>`, the proxy's origin. */
  origin: string;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Connections the proxy cut so far. */
  readonly cuts: number;
  /** Destroys every connection and stops listening. */
  close(): Promise<void>;
}

/**
 * Starts a proxy on 127.0.0.1 and a free port in front of `target`.
 *
 * @param target - Where to forward (a loopback port).
 * @param plan - The fault for the n-th connection (from 0); undefined forwards faithfully.
 */
export async function startTcpFaultProxy(
  target: { port: number },
  plan: (n: number) => TcpFault | undefined,
): Promise<TcpFaultProxy> {
  const sockets = new Set<Socket>();
  let connections = 0;
  let cuts = 0;
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
  };
  const server = createServer((client) => {
    const fault = plan(connections++) ?? {};
    track(client);
    const upstream = tcpConnect({ host: '127.0.0.1', port: target.port });
    track(upstream);
    let forwarded = 0;
    let stalled = false;
    client.on('data', (d) => upstream.write(d));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => {
      if (!stalled) client.destroy();
    });
    upstream.on('data', (d: Buffer) => {
      if (stalled) return;
      const limit = fault.cutAfterBytes ?? fault.stallAfterBytes;
      if (limit === undefined || forwarded + d.length < limit) {
        forwarded += d.length;
        client.write(d);
        return;
      }
      const part = d.subarray(0, limit - forwarded);
      forwarded = limit;
      if (fault.cutAfterBytes !== undefined) {
        cuts++;
        // Write the partial bytes, then reset both sides: the client sees a frame cut in the middle.
        client.write(part, () => {
          client.resetAndDestroy();
          upstream.destroy();
        });
      } else {
        stalled = true;
        if (part.length > 0) client.write(part);
        upstream.pause();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    get cuts() {
      return cuts;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
