import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The connections of a server, ended gracefully when it closes. */
export interface Connections {
  /**
   * Ends every connection once its answer in flight (if any) is sent, answers anything that comes
   * meanwhile with `Connection: close`, and resolves when every connection has been closed by both
   * ends; those still open after `graceMs` are cut.
   *
   * @param graceMs - how long in-flight answers and clients get before their connections are cut
   */
  endAll(graceMs: number): Promise<void>;
}

/**
 * Tracks the connections of `server` for a graceful close. Node's own close (`server.close()`,
 * `closeIdleConnections()`) destroys an idle keep-alive socket at once: the client learns it only
 * when it next reads that socket, so a request it sends on it meanwhile (to a new server on the same
 * port, say) fails with "other side closed". Ending the socket instead sends the client a FIN and
 * waits for its own close: the client has dropped the socket from its pool before the server's side
 * closes, and `endAll()` resolves only then.
 *
 * @param server - the HTTP server, before it accepts connections
 */
export function trackConnections(server: Server): Connections {
  const open = new Set<Socket>();
  // The answer in flight on each connection that has one.
  const answering = new Map<Socket, ServerResponse>();
  let ending = false;
  let cutting = false;

  server.on('connection', (socket: Socket) => {
    if (cutting) return void socket.destroy();
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      answering.delete(socket);
    });
  });
  // Before the app's own listener, so a first answer sent at once still goes out with the header.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const { socket } = req;
    answering.set(socket, res);
    // Once closing, this answer is the connection's last (Node sends `Connection: close` and ends it).
    if (ending) res.shouldKeepAlive = false;
    res.once('close', () => {
      answering.delete(socket);
      if (ending) socket.end();
    });
  });

  return {
    async endAll(graceMs) {
      ending = true;
      for (const socket of open) {
        const res = answering.get(socket);
        if (!res) socket.end();
        else if (!res.headersSent) res.shouldKeepAlive = false;
      }
      // Connections accepted from now on close after their first answer; those that send nothing,
      // and clients that never close their side, are cut after the grace period.
      const cut = setTimeout(() => {
        cutting = true;
        for (const socket of open) socket.destroy();
      }, graceMs);
      try {
        while (open.size > 0) await new Promise((resolve) => [...open][0]?.once('close', resolve));
      } finally {
        clearTimeout(cut);
      }
    },
  };
}
