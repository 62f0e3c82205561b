import type { AppRow } from '../store/apps.js';
import type { InteractionRow } from '../store/interactions.js';

/**
 * The access rule of a route, set where the route is registered; the gate decides everything from
 * it (never from the URL): `app` needs the bearer app token, `interaction` the interaction token of
 * its path, `admin` the control API's key, `optional` is an app API answer that needs no credential
 * but counts one when present (its 404 and 405 answers), and `none` is public (the playground,
 * `/healthz`). `app`, `interaction` and `optional` are the app API: rate limit, its headers,
 * `Idempotency-Key`.
 */
export type AuthMode = 'app' | 'interaction' | 'admin' | 'optional' | 'none';

/** An `Idempotency-Key` held while its request runs. */
export interface HeldKey {
  scope: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's access rule; a route registered without one is refused (see `route-table.ts`). */
    auth?: AuthMode;
    /** Whether the route honours `Idempotency-Key` (endpoints 5, 6 and 12). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The app of the bearer token, once authenticated. */
    appRow: AppRow | null;
    /** The interaction of the path's token, for `auth: 'interaction'` routes (the gate found it). */
    interactionRow: InteractionRow | null;
    /** The request's held `Idempotency-Key`, if any. */
    heldKey: HeldKey | null;
  }
}
