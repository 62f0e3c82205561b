import type { FastifyInstance } from 'fastify';

/**
 * Accepts only JSON bodies (CONTRACT: any other `Content-Type` is `415 unsupported_media_type`,
 * which Fastify raises when no parser matches). Uses Fastify's own JSON parser, which rejects
 * prototype-poisoning keys; an empty body with a JSON content type is read as no body, so a `DELETE`
 * sent with the header but nothing else is not an error.
 */
export function installJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    parse(request, body.toString(), done);
  });
}
