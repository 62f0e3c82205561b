import type { FastifyInstance, HTTPMethods } from 'fastify';
import { PlatformError } from '../errors.js';
import type { RouteEntry } from './route-table.js';
import type { AuthMode } from './types.js';

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

// A 405 answers under the access rule of its path: behind the admin key where any route of the path
// is (default-deny), public where every route is, and otherwise as an app API answer that counts a
// credential when one is given (CONTRACT: the rate-limit headers on every app API answer).
function accessOf(entries: RouteEntry[]): AuthMode {
  if (entries.some((e) => e.auth === 'admin')) return 'admin';
  if (entries.every((e) => e.auth === 'none')) return 'none';
  return 'optional';
}

/**
 * Adds a 405 route for every method a registered path does not have, answered with
 * `405 method_not_allowed` (CONTRACT) and an `Allow` header instead of the `404 not_found` a router
 * gives by default. Wildcard routes (the catch-alls) are left alone.
 */
export function addMethodNotAllowedRoutes(app: FastifyInstance, routes: readonly RouteEntry[]): void {
  const byUrl = new Map<string, RouteEntry[]>();
  for (const r of routes) if (!r.url.includes('*')) byUrl.set(r.url, [...(byUrl.get(r.url) ?? []), r]);
  for (const [url, entries] of byUrl) {
    const methods = new Set(entries.map((e) => e.method));
    const missing = METHODS.filter((m) => !methods.has(m));
    if (missing.length === 0) continue;
    const allow = METHODS.filter((m) => methods.has(m)).join(', ');
    app.route({
      method: missing,
      url,
      config: { auth: accessOf(entries) },
      // Answered before the body is read: a wrong method is the problem, whatever the body.
      onRequest: async (request, reply) => {
        reply.header('Allow', allow);
        throw new PlatformError('method_not_allowed', `${request.method} is not allowed here; use ${allow}`);
      },
      handler: async () => undefined,
    });
  }
}
