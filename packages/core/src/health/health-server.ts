import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@boardbot/protocol';
import { healthHostRefusal } from './health-host.js';
import type { ReadyState } from './health-hub.js';
import { DEFAULT_HEALTH_OPTIONS, type HealthOptions } from './health-options.js';

/** What the health endpoint answers with. */
export interface HealthRoutes {
  /**
   * Readiness: whether, and the checks behind it; of one app when the query names it (`?app=<id>`,
   * on a host of apps), undefined when there is no such app.
   */
  ready(app?: string): Promise<ReadyState | undefined>;
  /** The Prometheus text, and its content type. */
  metrics(): Promise<{ text: string; contentType: string }>;
}

function send(res: ServerResponse, status: number, body: string, type = 'application/json; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

const notFound = JSON.stringify({
  error: { code: 'not_found', message: 'The health endpoint serves GET /healthz, /readyz and /metrics.' },
});

const unknownApp = (app: string) =>
  JSON.stringify({
    error: {
      code: 'not_found',
      message: `No app ${JSON.stringify(app.slice(0, 64))} here: GET /readyz lists the apps.`,
    },
  });

/** Where the endpoint listens, and the `Host` names it answers to besides IP addresses and `localhost`. */
type HealthAddress = Required<Omit<HealthOptions, 'reconnectGraceMs'>>;

async function answer(
  routes: HealthRoutes,
  hosts: HealthAddress,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const refusal = healthHostRefusal(req.headers.host, hosts.host, hosts.allowedHosts);
  if (refusal !== undefined)
    return send(res, 400, JSON.stringify({ error: { code: 'bad_request', message: refusal } }));
  const [path, query = ''] = (req.url ?? '/').split('?');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return send(res, 405, JSON.stringify({ error: { code: 'method_not_allowed', message: 'Use GET.' } }));
  }
  switch (path) {
    case '/healthz':
      // Liveness: the process answers; nothing else is checked, so a slow dependency never gets it killed.
      return send(res, 200, JSON.stringify({ status: 'ok' }));
    case '/readyz': {
      const app = new URLSearchParams(query).get('app') ?? undefined;
      const state = await routes.ready(app);
      if (state === undefined) return send(res, 404, unknownApp(app ?? ''));
      return send(res, state.ready ? 200 : 503, JSON.stringify(state));
    }
    case '/metrics': {
      const { text, contentType } = await routes.metrics();
      return send(res, 200, text, contentType);
    }
    default:
      send(res, 404, notFound);
  }
}

/**
 * Serves `/healthz`, `/readyz` and `/metrics` over plain HTTP (node:http: three routes need no
 * framework); a request addressed to a foreign `Host` is refused with `400 bad_request` (see
 * `healthHostRefusal`).
 * @param routes - what the routes answer
 * @param options - the port (0: a free one), the interface, and the `Host` names answered besides IP
 * addresses and `localhost`
 * @param log - hears a request it failed to answer, and where it listens
 * @param listening - the message of the line that says where it listens
 * @returns its URL and what closes it, once it listens
 */
export async function listenHealth(
  routes: HealthRoutes,
  options: HealthOptions,
  log: Logger,
  listening: string,
): Promise<{ url: string; close(): Promise<void> }> {
  // Defaults by destructuring: an option given as undefined (from JavaScript) must not listen on every interface.
  const { port, host = DEFAULT_HEALTH_OPTIONS.host, allowedHosts = DEFAULT_HEALTH_OPTIONS.allowedHosts } = options;
  const address: HealthAddress = { port, host, allowedHosts };
  // A request without Host gets the envelope below, not Node's bare 400.
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    answer(routes, address, req, res).catch((error: unknown) => {
      log.error({ err: error }, 'health endpoint failed to answer');
      if (!res.headersSent)
        send(res, 500, JSON.stringify({ error: { code: 'internal', message: 'See the bot log.' } }));
      else res.end();
    });
  });
  server.listen(port, host);
  await once(server, 'listening');
  const bound = server.address() as AddressInfo;
  const shown = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  const url = `http://${shown}:${bound.port}`;
  log.info({ url }, listening);
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url, close };
}
