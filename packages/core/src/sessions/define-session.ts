import type { Class } from '../kernel/metadata.js';
import type { OpenScope } from '../kernel/scoped.js';
import { SESSION_STORE } from './service.js';
import { type SessionDefinition, SessionHandleImpl, type SessionOptions } from './session-handle.js';

export type { SessionDefinition, SessionOptions, SessionScope } from './session-handle.js';

/** One week, in milliseconds. */
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Declares a session whose shape is a class validated with class-validator (its defaults are the
 * new session). Open it in a handler with `ctx.session(definition)`.
 *
 * @param shape - the class; its constructor must take no arguments
 * @param options - whose the session is, its TTL, and the migration rule
 * @example
 * class Score { @IsInt() points = 0; }
 * const Scores = defineSession(Score, { per: 'user-on-board' });
 * await ctx.session(Scores).update((s) => { s.points++; });
 */
export function defineSession<T extends object>(shape: Class<T>, options: SessionOptions<T>): SessionDefinition<T> {
  const definition: SessionDefinition<T> = {
    shape,
    name: options.name ?? shape.name,
    per: options.per,
    ttlMs: options.ttlMs ?? WEEK_MS,
    version: options.version ?? 1,
    migrate: options.migrate,
    open: (scope: OpenScope) => new SessionHandleImpl(definition, scope, scope.services.get(SESSION_STORE)),
  };
  return definition;
}
