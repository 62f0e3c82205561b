import { API_PREFIX, IDEMPOTENCY_KEY_PATTERN } from '@boardbot/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, hashToken } from '../auth/tokens.js';
import { PlatformError, validationFailed } from '../errors.js';
import type { InFlightKeys } from '../idempotency/in-flight.js';
import type { Platform } from '../platform/platform.js';
import { type FixedWindowLimiter, type RateLimitVerdict, resetSeconds } from '../ratelimit/fixed-window.js';
import type { HeldKey } from './types.js';

const IDEMPOTENCY_KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** Whether `url` is under the app API's prefix. */
export function isAppApiUrl(url: string): boolean {
  return url.startsWith(`${API_PREFIX}/`) || url === API_PREFIX || url.startsWith(`${API_PREFIX}?`);
}

/** Sets the three rate-limit headers of a verdict (CONTRACT: on every app API answer). */
export function setRateHeaders(reply: FastifyReply, v: RateLimitVerdict): void {
  reply.header('X-RateLimit-Limit', String(v.limit));
  reply.header('X-RateLimit-Remaining', String(v.remaining));
  reply.header('X-RateLimit-Reset', resetSeconds(v.resetMs));
}

/** The credential a request is counted against, and the app it authenticates (if any). */
function credentialOf(p: Platform, request: FastifyRequest): { bucket: string | undefined; scope: string | undefined } {
  const auth = request.routeOptions.config.auth ?? 'optional';
  if (auth === 'interaction') {
    // CONTRACT: the interaction token is the credential of endpoint 12, and its rate-limit bucket.
    const token = (request.params as { token?: string }).token ?? '';
    const hash = hashToken(token);
    return { bucket: `interaction:${hash}`, scope: `interaction:${hash}` };
  }
  const token = bearerToken(request.headers.authorization);
  const app = token === undefined ? undefined : p.store.apps.byTokenHash(hashToken(token));
  request.appRow = app ?? null;
  return app ? { bucket: `app:${app.id}`, scope: `app:${app.id}` } : { bucket: undefined, scope: undefined };
}

/**
 * The gate of every app API request, before its body is read: resolves the credential, counts it
 * against the rate limit (CONTRACT: the three headers on every response, errors included; over the
 * limit `429 rate_limited` with `Retry-After`, and the request has no effect), refuses a missing or
 * unknown token with `401`, and holds the `Idempotency-Key` of endpoints 5 and 12.
 */
export function installAppApiGate(
  app: FastifyInstance,
  p: Platform,
  gate: { limiter: FixedWindowLimiter; inFlight: InFlightKeys; isClosing: () => boolean },
): void {
  const { limiter, inFlight } = gate;
  app.decorateRequest('appRow', null);
  app.decorateRequest('heldKey', null);

  app.addHook('onRequest', async (request, reply) => {
    if (!isAppApiUrl(request.url)) return;
    const { bucket, scope } = credentialOf(p, request);
    // Requests without a valid credential are not counted (there is nothing to count them against);
    // they still carry the headers, of a fresh window.
    const verdict = bucket === undefined ? limiter.fresh() : limiter.take(bucket);
    setRateHeaders(reply, verdict);
    if (gate.isClosing()) throw new PlatformError('unavailable', 'The emulator is shutting down: retry shortly');
    const auth = request.routeOptions.config.auth ?? 'optional';
    if (auth === 'app' && request.appRow === null) {
      throw new PlatformError(
        'unauthorized',
        request.headers.authorization === undefined
          ? 'Missing Authorization: Bearer <app token> header'
          : 'Unknown app token: check the token of your app (BOARDBOT_TOKEN)',
      );
    }
    if (!verdict.allowed) {
      const retryAfter = Number(resetSeconds(verdict.resetMs));
      throw new PlatformError('rate_limited', `Rate limit of ${verdict.limit} requests per window reached`, {
        retryAfter,
      });
    }
    const key = request.headers['idempotency-key'];
    if (request.routeOptions.config.idempotent && key !== undefined && scope !== undefined) {
      if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
        throw validationFailed(
          [{ path: '/Idempotency-Key', message: 'Expected 1 to 255 visible ASCII characters' }],
          'Invalid Idempotency-Key header',
        );
      }
      if (!inFlight.hold(scope, key)) {
        throw new PlatformError(
          'idempotency_in_progress',
          'A request with this Idempotency-Key is still being processed: retry when it has been answered',
        );
      }
      request.heldKey = { scope, key } satisfies HeldKey;
    }
  });

  const release = async (request: FastifyRequest) => {
    const held = request.heldKey;
    if (held) {
      inFlight.release(held.scope, held.key);
      request.heldKey = null;
    }
  };
  app.addHook('onResponse', release);
  app.addHook('onRequestAbort', release);
}
