import { type AddressInfo, createServer, type Server } from 'node:net';

// Loopback ports for the tests of what happens when nothing listens, or something else already does.

function listen(): Promise<Server> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A port on 127.0.0.1 that nothing listens on: the system handed it out a moment ago, and it was let go. */
export async function vacantPort(): Promise<number> {
  const server = await listen();
  const { port } = server.address() as AddressInfo;
  await close(server);
  return port;
}

/** A port on 127.0.0.1 held by a bare listener, and how to let it go. */
export interface OccupiedPort {
  port: number;
  /** Stops listening. */
  release(): Promise<void>;
}

/** Holds a port on 127.0.0.1 until `release()`, so that a server asked to listen there is refused. */
export async function occupiedPort(): Promise<OccupiedPort> {
  const server = await listen();
  return { port: (server.address() as AddressInfo).port, release: () => close(server) };
}
