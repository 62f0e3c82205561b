import type { Class } from '../kernel/metadata.js';
import type { OpenScope, Scoped } from '../kernel/scoped.js';
import { SESSION_STORE } from './service.js';
import { type SessionHandle, SessionHandleImpl } from './session-handle.js';

/** Whose a session is: one person's (on every board), one board's, or one person's on one board. */
export type SessionScope = 'user' | 'board' | 'user-on-board';

/** Options of {@link defineSession}. */
export interface SessionOptions<T extends object> {
  /** Whose the session is. */
  per: SessionScope;
  /** The session's name in its store keys. @defaultValue the class name */
  name?: string;
  /**
   * How long a session lives after its last write; a read after that finds a new one.
   * @defaultValue 7 days
   */
  ttlMs?: number;
  /** The version of the shape; raise it when the class changes incompatibly. @defaultValue 1 */
  version?: number;
  /**
   * Turns a stored value of another version, or one that no longer passes the class's constraints,
   * into the current shape. Returning undefined (or a value that still fails) resets the session.
   * @defaultValue none: such a session is reset to a new instance
   * @param stored - the stored plain JSON
   * @param fromVersion - the version that wrote it
   */
  migrate?: (stored: unknown, fromVersion: number) => Partial<T> | undefined;
}

/** One week, in milliseconds. */
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** A session kind: its class and how it is keyed, stored and migrated; open it with `ctx.session()`. */
export interface SessionDefinition<T extends object> extends Scoped<SessionHandle<T>> {
  readonly shape: Class<T>;
  readonly name: string;
  readonly per: SessionScope;
  readonly ttlMs: number;
  readonly version: number;
  readonly migrate: SessionOptions<T>['migrate'];
}

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
