import type { AppRow } from '../store/apps.js';

/**
 * Which credential a route needs: the app token, the interaction token of the path, the admin key,
 * or none (`optional`: resolved when present, for the rate-limit headers of 404/405 answers).
 */
export type AuthMode = 'app' | 'interaction' | 'admin' | 'optional' | 'none';

/** An `Idempotency-Key` held while its request runs. */
export interface HeldKey {
  scope: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The credential the route needs. @defaultValue `'optional'` */
    auth?: AuthMode;
    /** Whether the route honours `Idempotency-Key` (endpoints 5 and 12). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The app of the bearer token, once authenticated. */
    appRow: AppRow | null;
    /** The request's held `Idempotency-Key`, if any. */
    heldKey: HeldKey | null;
  }
}
