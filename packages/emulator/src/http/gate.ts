import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireAdmin } from '../auth/admin-auth.js';
import { secretMatcher } from '../auth/tokens.js';
import { PlatformError } from '../errors.js';
import { type AppApiGateDeps, appApiGate } from './app-api-gate.js';
import { checkHost } from './host-check.js';
import type { AuthMode } from './types.js';

/** What the gate works with. */
export interface GateDeps extends AppApiGateDeps {
  adminKey: string;
  /** The `Host` names accepted right now; undefined accepts any (see `host-check.ts`). */
  allowedHosts: () => Set<string> | undefined;
}

/**
 * The access rule of the route that matched. Every registered route has one (see
 * `route-table.ts`). When no route matched, the not-found answer is an app API answer (a credential,
 * if any, is counted, and the rate-limit headers are sent); any other context Fastify made itself is
 * treated as admin-only, so a gap can only deny.
 */
export function accessOf(request: FastifyRequest): AuthMode {
  return request.routeOptions.config.auth ?? (request.is404 ? 'optional' : 'admin');
}

/**
 * The one gate of every request, decided from the matched route's access rule and never from a
 * second reading of the URL: whatever form the request target takes (absolute-form,
 * percent-encoded, ...), if the router found a route, that route's rule applies. First the `Host`
 * (see `checkHost`); then app API routes get their credential, rate limit and `Idempotency-Key`
 * (see `appApiGate`), control routes the admin key, public routes nothing. While the emulator
 * closes, every request gets `503 unavailable`.
 */
export function installGate(app: FastifyInstance, deps: GateDeps): void {
  app.decorateRequest('appRow', null);
  app.decorateRequest('interactionRow', null);
  app.decorateRequest('heldKey', null);
  // The key's digest once, not on every control request.
  const isAdminKey = secretMatcher(deps.adminKey);

  const gate = (request: FastifyRequest, reply: FastifyReply): void => {
    checkHost(request, deps.allowedHosts());
    const auth = accessOf(request);
    if (auth === 'app' || auth === 'interaction' || auth === 'optional') {
      appApiGate(deps, request, reply, auth);
      return;
    }
    if (deps.isClosing()) throw new PlatformError('unavailable', 'The emulator is shutting down: retry shortly');
    if (auth === 'admin') requireAdmin(request, isAdminKey);
  };
  // Callback hooks: nothing here waits, and an async hook costs a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    try {
      gate(request, reply);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  });

  const release = (request: FastifyRequest, done: () => void) => {
    const held = request.heldKey;
    if (held) {
      deps.inFlight.release(held.scope, held.key);
      request.heldKey = null;
    }
    done();
  };
  app.addHook('onResponse', (request, _reply, done) => release(request, done));
  app.addHook('onRequestAbort', release);
}
