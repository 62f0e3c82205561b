import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidSessionError, SessionConflictError, SessionScopeError } from '../errors.js';
import type { Class } from '../kernel/metadata.js';
import { type HandlerRun, namedKey } from '../kernel/run.js';
import { RunKey } from '../kernel/run-key.js';
import type { OpenScope, Scoped } from '../kernel/scoped.js';
import { currentValue, problemsOf, toPlain } from './session-shape.js';
import type { SessionStore, SessionValue } from './session-store.js';
import { keptWrites, WRITTEN_KEPT, writtenBy } from './written-values.js';

/** Attempts of one update before it gives up (each lost a compare-and-set to another writer). */
const ATTEMPTS = 50;
/**
 * Updates a session remembers (by a 16-character digest of their keys, about 8 KiB in all), so an
 * event handled again does not apply its update twice: after a restart, or by a second instance of
 * the bot that handles every event too and runs behind the first by up to this many updates.
 */
const APPLIED_KEPT = 512;

/** What `update()` takes: a callback that mutates the value in place, or returns the new value. */
// biome-ignore lint/suspicious/noConfusingVoidType: a mutating callback returns nothing (void), which must be allowed.
export type SessionChange<T> = (value: T) => T | void | Promise<T | void>;

/** A session opened in a handler: read, change (compare-and-set, retried), delete. */
export interface SessionHandle<T extends object> {
  /** The session's store key. */
  readonly key: string;
  /** The current value (a new instance when there is none, it expired, or its shape was reset). */
  get(): Promise<T>;
  /**
   * Changes the session: reads it, lets `change` modify (or replace) it, validates it and writes it
   * only if nobody wrote in between; otherwise reads again and calls `change` again, so `change` must
   * only touch the value. An event handled again after a restart does not apply its update twice:
   * `change` is not called, and the update resolves with the value it wrote the first time (kept for
   * the session's last 16 updates, 32 KiB in all; past that, the current value, with a warning).
   * Build the reply from the resolved value, not from variables `change` sets.
   *
   * @param change - mutates the value, or returns a new one
   * @returns the value written (on a replay, the value this update wrote when it was applied)
   * @throws InvalidSessionError when the changed value fails the class's constraints
   * @throws SessionConflictError when other writers won every attempt
   */
  update(change: SessionChange<T>): Promise<T>;
  /** Deletes the session (the next read gets a new instance). */
  delete(): Promise<void>;
}

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

/** A session kind: its class and how it is keyed, stored and migrated; open it with `ctx.session()`. */
export interface SessionDefinition<T extends object> extends Scoped<SessionHandle<T>> {
  readonly shape: Class<T>;
  readonly name: string;
  readonly per: SessionScope;
  readonly ttlMs: number;
  readonly version: number;
  readonly migrate: SessionOptions<T>['migrate'];
}

/** The ordinals of the updates a run made to each session, for keys that are the same on a replay. */
const UPDATES = new RunKey<Map<string, number>>('session updates');

function nextOrdinal(run: HandlerRun, key: string): number {
  let mine = run.get(UPDATES);
  if (mine === undefined) {
    mine = new Map();
    run.set(UPDATES, mine);
  }
  const n = mine.get(key) ?? 0;
  mine.set(key, n + 1);
  return n;
}

/** The {@link SessionHandle} of one definition for one handler run. */
export class SessionHandleImpl<T extends object> implements SessionHandle<T> {
  readonly key: string;

  /**
   * @param definition - the session's class, scope and rules
   * @param scope - the run that opened it
   * @param store - the bot's session store
   */
  constructor(
    private readonly definition: SessionDefinition<T>,
    private readonly scope: OpenScope,
    private readonly store: SessionStore,
  ) {
    this.key = sessionKey(definition, scope);
  }

  async get(): Promise<T> {
    const record = await this.store.read(this.key);
    return currentValue(this.definition, record?.value, this.scope.now(), this.scope.log);
  }

  async update(change: SessionChange<T>): Promise<T> {
    const updateKey = digest(namedKey(this.scope.run, `session:${this.key}:${nextOrdinal(this.scope.run, this.key)}`));
    const { definition, scope } = this;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const record = await this.store.read(this.key);
      const stored = record?.value;
      if (stored?.applied.includes(updateKey)) return this.replayed(stored, updateKey);
      const value = await currentValue(definition, stored, scope.now(), scope.log);
      const next = (await change(value)) ?? value;
      const problems = await problemsOf(next);
      if (problems.length > 0) throw new InvalidSessionError(definition.name, problems);
      const applied = [...(stored?.applied ?? []), updateKey].slice(-APPLIED_KEPT);
      const written = await this.store.write(this.key, record?.version ?? 0, {
        data: toPlain(next),
        shape: definition.version,
        expiresAt: scope.now() + definition.ttlMs,
        applied,
        written: keptWrites(stored),
      });
      if (written) return next;
      // Another writer won: spread the retries so that the same ones do not collide again.
      await sleep(Math.random() * Math.min(2 ** attempt, 50));
    }
    throw new SessionConflictError(definition.name, ATTEMPTS);
  }

  /**
   * What an update already applied resolves with when its event is handled again: the value it wrote
   * then (even if the session has expired or changed since), so the replayed handler computes the
   * same reply; the current value when the session no longer keeps it.
   */
  private async replayed(stored: SessionValue, updateKey: string): Promise<T> {
    const { definition, scope } = this;
    const own = writtenBy(stored, updateKey);
    if (own !== undefined) {
      const value = { data: own.data, shape: own.shape, expiresAt: null, applied: [] };
      return currentValue(definition, value, scope.now(), scope.log);
    }
    scope.log.warn(
      { session: definition.name, kept: WRITTEN_KEPT },
      'a replayed update was applied before the values this session keeps: update() resolves with the current value',
    );
    return currentValue(definition, stored, scope.now(), scope.log);
  }

  async delete(): Promise<void> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const record = await this.store.read(this.key);
      if (record === undefined || record.value === null) return;
      if (await this.store.write(this.key, record.version, null)) return;
      await sleep(Math.random() * Math.min(2 ** attempt, 50));
    }
    throw new SessionConflictError(this.definition.name, ATTEMPTS);
  }
}

/**
 * The store key of a session: the app, the session's name, and the person and/or board it is kept
 * per, so two bots (or two session kinds) sharing a store never share a key.
 */
export function sessionKey(
  definition: Pick<SessionDefinition<object>, 'name' | 'per'>,
  scope: Pick<OpenScope, 'app' | 'userId' | 'boardId'>,
): string {
  const { per, name } = definition;
  const needsUser = per !== 'board';
  const needsBoard = per !== 'user';
  if ((needsUser && scope.userId === undefined) || (needsBoard && scope.boardId === undefined)) {
    throw new SessionScopeError(name, per);
  }
  const parts = [needsUser ? `user:${scope.userId}` : '', needsBoard ? `board:${scope.boardId}` : ''].filter(Boolean);
  return `${scope.app.id}:${name}:${parts.join(':')}`;
}

/** An update key as a session keeps it: 96 bits of its SHA-256, in base64url. */
function digest(updateKey: string): string {
  return createHash('sha256').update(updateKey).digest('base64url').slice(0, 16);
}
