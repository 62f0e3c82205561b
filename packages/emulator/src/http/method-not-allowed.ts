import type { FastifyInstance, HTTPMethods } from 'fastify';
import { PlatformError } from '../errors.js';

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Collects the routes as they are added so that {@link addMethodNotAllowedRoutes} can answer the
 * other methods of each path with `405 method_not_allowed` (CONTRACT) and an `Allow` header,
 * instead of the `404 not_found` a router gives by default.
 */
export function collectRoutes(app: FastifyInstance): Map<string, Set<string>> {
  const routes = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let set = routes.get(route.url);
    if (!set) {
      set = new Set();
      routes.set(route.url, set);
    }
    for (const m of methods) set.add(m);
  });
  return routes;
}

/** Adds a 405 route for every method a collected path does not have. */
export function addMethodNotAllowedRoutes(app: FastifyInstance, routes: Map<string, Set<string>>): void {
  for (const [url, methods] of [...routes]) {
    const missing = METHODS.filter((m) => !methods.has(m));
    if (missing.length === 0) continue;
    const allow = METHODS.filter((m) => methods.has(m)).join(', ');
    app.route({
      method: missing,
      url,
      config: { auth: 'optional' },
      // Answered before the body is read: a wrong method is the problem, whatever the body.
      onRequest: async (request, reply) => {
        reply.header('Allow', allow);
        throw new PlatformError('method_not_allowed', `${request.method} is not allowed here; use ${allow}`);
      },
      handler: async () => undefined,
    });
  }
}
