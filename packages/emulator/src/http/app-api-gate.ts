import { IDEMPOTENCY_KEY_PATTERN } from '@boardbot/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../auth/tokens.js';
import { PlatformError, validationFailed } from '../errors.js';
import type { InFlightKeys } from '../idempotency/in-flight.js';
import type { Platform } from '../platform/platform.js';
import { type RateLimitVerdict, rateHeaders, resetSeconds } from '../ratelimit/fixed-window.js';
import type { RateVerdicts } from './rate-verdicts.js';
import type { AuthMode, HeldKey } from './types.js';

const IDEMPOTENCY_KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** What the app API gate works with. */
export interface AppApiGateDeps {
  p: Platform;
  verdicts: RateVerdicts;
  inFlight: InFlightKeys;
  isClosing: () => boolean;
}

/** Sets the three rate-limit headers of a verdict (CONTRACT: on every app API answer). */
export function setRateHeaders(reply: FastifyReply, v: RateLimitVerdict): void {
  reply.headers(rateHeaders(v));
}

/**
 * The rate-limit bucket and idempotency scope of a request, and the record it authenticates. An
 * interaction token that matches no interaction has no bucket of its own: it is counted against the
 * caller's address and answered `404`, so a flood of made-up tokens cannot grow the limiter.
 */
function credentialOf(p: Platform, request: FastifyRequest, auth: AuthMode): string | undefined {
  if (auth === 'interaction') {
    // CONTRACT: the interaction token is the credential of endpoint 12, and its rate-limit bucket.
    const token = (request.params as { token?: string }).token ?? '';
    const hash = p.tokenDigests.digestOf(token);
    const row = p.store.interactions.byTokenHash(hash);
    request.interactionRow = row ?? null;
    if (!row) return undefined;
    p.tokenDigests.remember(token, hash);
    return `interaction:${hash}`;
  }
  const token = bearerToken(request.headers.authorization);
  if (token === undefined) return undefined;
  const hash = p.tokenDigests.digestOf(token);
  const app = p.store.apps.byTokenHash(hash);
  request.appRow = app ?? null;
  if (!app) return undefined;
  p.tokenDigests.remember(token, hash);
  return `app:${app.id}`;
}

/** Holds the request's `Idempotency-Key` of `scope`, or refuses a malformed or in-flight one. */
function holdKey(request: FastifyRequest, inFlight: InFlightKeys, scope: string): void {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return;
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

/**
 * The gate of an app API request (a route whose rule is `app`, `interaction` or `optional`), run on
 * its head before the body is read: resolves the credential, counts the request against it, or
 * against the caller's address when it has no valid one (CONTRACT: the three headers on every
 * response, errors included; over the limit `429 rate_limited` with `Retry-After`, and the request
 * has no effect), refuses a missing or unknown credential, and holds the `Idempotency-Key` of the
 * routes that honour one.
 */
export function appApiGate(deps: AppApiGateDeps, request: FastifyRequest, reply: FastifyReply, auth: AuthMode): void {
  const bucket = credentialOf(deps.p, request, auth);
  const verdict = deps.verdicts.count(request.raw, bucket, request.ip);
  setRateHeaders(reply, verdict);
  if (deps.isClosing()) throw new PlatformError('unavailable', 'The emulator is shutting down: retry shortly');
  // Before the credential is judged: an address out of requests learns nothing more about tokens.
  if (!verdict.allowed) {
    const retryAfter = Number(resetSeconds(verdict.resetMs));
    throw new PlatformError('rate_limited', `Rate limit of ${verdict.limit} requests per window reached`, {
      retryAfter,
    });
  }
  if (auth === 'app' && request.appRow === null) {
    throw new PlatformError(
      'unauthorized',
      request.headers.authorization === undefined
        ? 'Missing Authorization: Bearer <app token> header'
        : // The fix (check BOARDBOT_TOKEN) is the client's to say: saying it here too made it appear twice.
          'Unknown app token',
    );
  }
  if (auth === 'interaction' && request.interactionRow === null) {
    throw new PlatformError('unknown_interaction', 'No interaction has this token');
  }
  if (request.routeOptions.config.idempotent && bucket !== undefined) holdKey(request, deps.inFlight, bucket);
}
