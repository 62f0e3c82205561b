import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { McpOptionError } from '../errors.js';

/** What {@link serveMcpOverHttp} takes. */
export interface McpHttpOptions {
  /** Makes the MCP server of one request (stateless: each request has its own). */
  server: () => Server;
  /** The port, on loopback; 0: a free one. @defaultValue 0 */
  port?: number;
  /** The loopback address to listen on (`127.0.0.1`, `::1` or `localhost`). @defaultValue `'127.0.0.1'` */
  host?: string;
  /** The bearer secret clients send (at least 32 characters). @defaultValue a random one, 43 characters */
  secret?: string;
}

/** A running MCP endpoint. */
export interface McpHttpEndpoint {
  /** Where clients connect: `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** The bearer secret clients send (`Authorization: Bearer <secret>`). */
  secret: string;
  /** Stops listening and ends the connections. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Answers with the contract's error envelope. */
function refuse(res: ServerResponse, status: number, code: string, message: string, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify({ error: { code, message } }));
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Serves MCP's streamable HTTP transport on loopback, at `/mcp`: every request must carry the bearer
 * secret, and its `Host` (and `Origin`, when a browser sends one) must name this loopback address
 * and port, so a web page cannot reach it through DNS rebinding. Refusals use the error envelope.
 *
 * @param options - the server of a request, the port, the address and the secret
 * @throws McpOptionError for an address beyond loopback or a short secret
 */
export async function serveMcpOverHttp(options: McpHttpOptions): Promise<McpHttpEndpoint> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) {
    throw new McpOptionError('host', `must be a loopback address (127.0.0.1, ::1 or localhost), not ${host}`);
  }
  const secret = options.secret ?? randomBytes(32).toString('base64url');
  if (secret.length < 32) throw new McpOptionError('secret', 'must have at least 32 characters');
  const expected = digest(`Bearer ${secret}`);
  let allowed = new Set<string>();
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (!allowed.has(req.headers.host ?? '')) return refuse(res, 403, 'forbidden', 'This Host is not served here');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowed.has(origin.replace(/^http:\/\//, ''))) {
      return refuse(res, 403, 'forbidden', 'This Origin is not served here');
    }
    // Compared as digests, in constant time: the secret's length does not show either.
    if (!timingSafeEqual(digest(req.headers.authorization ?? ''), expected)) {
      return refuse(res, 401, 'unauthorized', 'Send the MCP secret as Authorization: Bearer <secret>', {
        'www-authenticate': 'Bearer',
      });
    }
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') return refuse(res, 404, 'not_found', 'MCP is at /mcp');
    // Stateless (no session ids): each request is whole, with a server and a transport of its own.
    const server = options.server();
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => {
        if (!res.headersSent) refuse(res, 500, 'internal_error', 'The MCP request failed');
      });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = http.address() as { port: number };
  const shown = host.includes(':') ? `[${host}]` : host;
  allowed = new Set([`${shown}:${port}`, `127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  return {
    url: `http://${shown}:${port}/mcp`,
    secret,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
