import { existsSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The built playground page. Resolved from this file, so it works from `src/` (vitest) and from
 * `dist/` (the published package): both sit beside `dist/`.
 */
export const PLAYGROUND_DIR = fileURLToPath(new URL('../dist/playground/', import.meta.url));

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>boardbot emulator</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto">
<h1>The playground is not built</h1>
<p>The emulator is running: the app API is under <code>/api/v1</code> and the control API under
<code>/_emulator/v1</code>. To get the playground page, build it from the repository root with
<code>npm run build</code> and reload.</p>
</body></html>
`;

/**
 * Serves the playground with `@fastify/static` (ETag, `Last-Modified`, ranges, and paths that cannot
 * leave the directory): `GET /` is the page, or a short page saying how to build it, and `GET /*`
 * its files; a missing file is the envelope's `404 not_found`. Vite's assets carry a content hash in
 * their name and are cached for good; everything else is revalidated on each load.
 *
 * @param dir - The built playground's directory. @defaultValue {@link PLAYGROUND_DIR}
 */
export function playgroundRoutes(app: FastifyInstance, dir: string = PLAYGROUND_DIR): void {
  const root = resolve(dir);
  app.register(fastifyStatic, {
    root,
    serve: false,
    cacheControl: false,
    // A `..` segment (with either separator) or a path resolving outside the directory is a 404 like
    // any missing file, before `send`'s own check (which would answer 403).
    allowedPath: (pathname) =>
      !/(^|[\\/])\.\.([\\/]|$)/.test(pathname) && resolve(root, `./${pathname}`).startsWith(root + sep),
    setHeaders: (res, path) => {
      const immutable = path.startsWith(`${root}${sep}assets${sep}`);
      res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // RFC 9239: JavaScript is `text/javascript`; the MIME table under @fastify/send still says
  // `application/javascript`.
  const options = {
    config: { auth: 'none' as const },
    onSend: async (_request: FastifyRequest, reply: FastifyReply) => {
      const type = reply.getHeader('content-type');
      if (typeof type === 'string' && type.startsWith('application/javascript')) {
        reply.header('content-type', type.replace('application/javascript', 'text/javascript'));
      }
    },
  };
  app.get('/', options, (_request, reply) => {
    if (existsSync(resolve(root, 'index.html'))) return reply.sendFile('index.html');
    return reply.type('text/html; charset=utf-8').send(NOT_BUILT);
  });
  app.get('/*', options, (request, reply) => reply.sendFile((request.params as { '*': string })['*']));
}
