import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { PlatformError } from './errors.js';

/**
 * The built playground page. Resolved from this file, so it works from `src/` (vitest) and from
 * `dist/` (the published package): both sit beside `dist/`.
 */
export const PLAYGROUND_DIR = fileURLToPath(new URL('../dist/playground/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>boardbot emulator</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto">
<h1>The playground is not built</h1>
<p>The emulator is running: the app API is under <code>/api/v1</code> and the control API under
<code>/_emulator/v1</code>. To get the playground page, build it from the repository root with
<code>npm run build</code> and reload.</p>
</body></html>
`;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return '\0';
  }
}

async function sendFile(reply: FastifyReply, path: string): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) return false;
  const type = TYPES[extname(path)] ?? 'application/octet-stream';
  // Vite's assets carry a content hash in their name; the page itself must always be fresh.
  reply.header(
    'Cache-Control',
    path.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
  );
  await reply.type(type).send(await readFile(path));
  return true;
}

/**
 * Serves the playground: `GET /` (the page, or a short "not built" page saying how to build it) and
 * its static files. Paths cannot leave the playground directory.
 */
export function playgroundRoutes(app: FastifyInstance, dir: string = PLAYGROUND_DIR): void {
  const root = resolve(dir);
  app.get('/', { config: { auth: 'none' } }, async (_request, reply) => {
    if (await sendFile(reply, resolve(root, 'index.html'))) return reply;
    return reply.type('text/html; charset=utf-8').send(NOT_BUILT);
  });
  app.get('/*', { config: { auth: 'none' } }, async (request, reply) => {
    const path = resolve(root, safeDecode((request.params as { '*': string })['*']));
    if (path.startsWith(root + sep) && (await sendFile(reply, path))) return reply;
    throw new PlatformError('not_found', `No route GET ${request.url.split('?')[0]}`);
  });
}
