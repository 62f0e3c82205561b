import type { FastifyInstance } from 'fastify';

/**
 * The page's Content Security Policy: scripts, styles and requests only from the emulator itself
 * (the playground is one bundle and talks only to the control API); images from the emulator and
 * `data:` (the icon). Embed and media images are shown as links, never loaded from their hosts, so
 * a viewer's address never reaches a host a bot or a person named. No framing, no plugins, no
 * `<base>`, forms only to the emulator.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every answer the emulator sends through Fastify: the playground, the control API, the app API. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  // For browsers that predate frame-ancestors: no page may frame the playground (clickjacking).
  'X-Frame-Options': 'DENY',
  // A JSON answer or an uploaded-looking path is never sniffed into a script or a page.
  'X-Content-Type-Options': 'nosniff',
  // The playground's URL carries the admin key (`?key=`): no link followed from it may send it on.
  'Referrer-Policy': 'no-referrer',
};

/**
 * Sends {@link SECURITY_HEADERS} on every answer, refusals included (`onSend` runs for those too).
 * Streams written straight to the socket (the gateway, the activity stream) set their own head;
 * they carry no page.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.headers(SECURITY_HEADERS);
    done(null, payload);
  });
}
