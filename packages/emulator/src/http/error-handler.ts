import type { ErrorCode, Logger } from '@boardbot/protocol';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PlatformError, validationFailed } from '../errors.js';
import { redactUrl } from '../logging.js';
import { type RateLimitVerdict, rateHeaders } from '../ratelimit/fixed-window.js';
import { SECURITY_HEADERS } from '../security-headers.js';
import { drainBody } from './drain.js';

// Fastify's own errors, mapped to the contract's codes (CONTRACT.md "Base, formats, auth").
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
};

const FASTIFY_MESSAGES: Partial<Record<ErrorCode, string>> = {
  invalid_json: 'The body is not valid JSON',
  payload_too_large: 'The body is over the limit of 1 MiB',
  unsupported_media_type: 'The body must be JSON: send Content-Type: application/json',
};

function toPlatformError(error: FastifyError): PlatformError | undefined {
  if (error instanceof PlatformError) return error;
  const mapped = FASTIFY_CODES[error.code];
  if (mapped) return new PlatformError(mapped, FASTIFY_MESSAGES[mapped] ?? error.message);
  // Fastify's secure JSON parser throws a SyntaxError (status 400) for bad JSON and poisoned keys.
  if (error instanceof SyntaxError)
    return new PlatformError('invalid_json', `The body is not valid JSON: ${error.message}`);
  if (error.validation) {
    return validationFailed(
      error.validation.map((v) => ({ path: v.instancePath || '/', message: v.message ?? 'invalid' })),
    );
  }
  const status = error.statusCode ?? 500;
  if (status === 404) return new PlatformError('not_found', error.message);
  if (status === 413) return new PlatformError('payload_too_large', error.message);
  if (status === 415) return new PlatformError('unsupported_media_type', error.message);
  if (status >= 400 && status < 500) return new PlatformError('validation_failed', error.message);
  return undefined;
}

/**
 * Sends a platform error as the contract's envelope, with the headers its status requires and the
 * rate-limit headers (CONTRACT: on every answer): those the gate set, else those of `verdict`
 * (called only then, since it may count the request; see `RateVerdicts.ofRefusal`).
 */
export function sendPlatformError(
  reply: FastifyReply,
  error: PlatformError,
  verdict: () => RateLimitVerdict,
): FastifyReply {
  if (!reply.hasHeader('X-RateLimit-Limit')) reply.headers(rateHeaders(verdict()));
  // A URL refused before routing is answered outside the hooks: the headers are set here too.
  reply.headers(SECURITY_HEADERS);
  if (error.apiCode === 'unauthorized') reply.header('WWW-Authenticate', 'Bearer');
  if (error.apiCode === 'rate_limited') reply.header('Retry-After', String(Math.ceil(error.retryAfter ?? 1)));
  return reply.code(error.statusCode).type('application/json; charset=utf-8').send(error.toEnvelope());
}

/**
 * One error handler for the whole server: every thrown {@link PlatformError} and every Fastify
 * error becomes the contract's envelope; anything else is a `500 internal_error` that is logged
 * (CONTRACT: never caused by bad input, so a 500 is a bug worth a log line).
 *
 * @param verdictOf - The rate-limit verdict of a refusal the gate set no headers for.
 */
export function installErrorHandler(
  app: FastifyInstance,
  logger: Logger,
  verdictOf: (request: FastifyRequest) => RateLimitVerdict,
): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const mapped = toPlatformError(error);
    const verdict = () => verdictOf(request);
    if (mapped?.apiCode === 'payload_too_large') {
      // CONTRACT: a body over the limit is `413 payload_too_large`. The rest of the body is read and
      // dropped first (up to a bound), then the answer closes the connection: answering while the
      // client still uploads makes it see a reset instead of the answer.
      await drainBody(request.raw);
      reply.header('Connection', 'close');
    }
    if (mapped) return sendPlatformError(reply, mapped, verdict);
    logger.error({ err: error, method: request.method, route: request.routeOptions.url }, 'emulator: internal error');
    return sendPlatformError(reply, new PlatformError('internal_error', 'The emulator failed; see its log'), verdict);
  });
  app.setNotFoundHandler(async (request) => refuseAsNotFound(request));
}

/** Throws `404 not_found` for a request no route serves (its target redacted: it may hold a token). */
export async function refuseAsNotFound(request: FastifyRequest): Promise<never> {
  throw new PlatformError('not_found', `No route ${request.method} ${redactUrl(request.url).split('?')[0]}`);
}
