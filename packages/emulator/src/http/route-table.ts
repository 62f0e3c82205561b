import type { FastifyInstance } from 'fastify';
import { EmulatorRouteError } from '../errors.js';
import type { AuthMode } from './types.js';

/** One registered route: a method, its URL pattern and its access rule. */
export interface RouteEntry {
  method: string;
  url: string;
  auth: AuthMode;
}

const tables = new WeakMap<FastifyInstance, RouteEntry[]>();

/**
 * Records every route as it is registered, and refuses (throws at registration) a route without an
 * access rule: default-deny by construction, since the gate decides auth, rate limit and
 * `Idempotency-Key` from the matched route's rule alone. A route that cannot be registered cannot
 * serve, and the mistake shows at start-up, in every test, rather than as an open route.
 */
export function trackRoutes(app: FastifyInstance): RouteEntry[] {
  const routes: RouteEntry[] = [];
  tables.set(app, routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const auth = route.config?.auth;
    if (auth === undefined) throw new EmulatorRouteError(`${methods.join(',')} ${route.url}`);
    for (const method of methods) routes.push({ method, url: route.url, auth });
  });
  return routes;
}

/** The routes registered on an emulator's Fastify app (for tests that walk every route). */
export function routesOf(app: FastifyInstance): readonly RouteEntry[] {
  return tables.get(app) ?? [];
}
