import { createHash, randomUUID } from 'node:crypto';
import { BroadcastChangedError, SessionConflictError } from '../errors.js';
import type { SessionStore } from '../sessions/session-store.js';
import { readValue } from '../sessions/store-values.js';
import type { BroadcastBody, BroadcastFailure } from './broadcast-options.js';

/** What a broadcast reaches, fixed at its first call: the boards, in order, and its body's fingerprint. */
export interface BroadcastPlan {
  /** This plan's own id: a cursor of an earlier plan of the same broadcast id (expired since) is not its. */
  readonly planId: string;
  /** sha256 of the body as sent. */
  readonly fingerprint: string;
  /** The boards, in the order they are sent to. */
  readonly boards: readonly string[];
}

/**
 * How far a broadcast went: boards are sent to one at a time, in the plan's order, so where it
 * stands is a cursor. `since` says that the send to `boards[next]` may have begun, and when: a
 * process that finds it set does not know whether that board has the message.
 */
export interface BroadcastCursor {
  /** The plan it counts in (`BroadcastPlan.planId`). */
  readonly planId: string;
  /** The index of the next board to send to; the plan's length when it is done. */
  readonly next: number;
  /** When the send to `boards[next]` was first begun (epoch ms); undefined when it was not. */
  readonly since: number | undefined;
  /** Boards that have the message. */
  readonly sent: number;
  /** Boards refused for good. */
  readonly failed: number;
  /** The first of them (at most {@link MAX_KEPT_FAILURES}). */
  readonly failures: readonly BroadcastFailure[];
}

/** Most failures a broadcast's record lists (it counts them all). */
export const MAX_KEPT_FAILURES = 100;

/** A cursor as read, with the version a write of it must find. */
export interface ReadCursor {
  readonly version: number;
  readonly cursor: BroadcastCursor;
}

// The records' own shape number, apart from the sessions' versions.
const SHAPE = 1;
// Compare-and-set attempts of the plan's first write.
const ATTEMPTS = 5;

/**
 * The fingerprint of a broadcast's body: the same body gives the same one whatever the order of its
 * keys, so a resumed call can be told from one that changed the message.
 * @param body - the message
 */
export function fingerprintOf(body: BroadcastBody): string {
  const canonical = JSON.stringify(body, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * A broadcast's durable progress, kept in the bot's session store (file, Redis, PostgreSQL: shared
 * by replicas, surviving a crash): its plan, written once, and its cursor, rewritten after each board
 * by compare-and-set. This record, not the platform's idempotency keys (forgotten after 24 h), is
 * what sends each board the message once.
 */
export class BroadcastRecord {
  /**
   * @param store - the bot's session store
   * @param id - the broadcast's id
   * @param now - the clock, in milliseconds
   * @param keepMs - how long the record lives after its last write
   */
  constructor(
    private readonly store: SessionStore,
    readonly id: string,
    private readonly now: () => number,
    private readonly keepMs: number,
  ) {}

  /**
   * The broadcast's plan: the stored one when it has one (checked against this call's), else `plan`'s,
   * stored. A filter's or `'all'`'s boards (`explicit` false) are the stored ones.
   * @param fingerprint - this call's body's fingerprint
   * @param boards - this call's boards, read only when there is no plan yet
   * @param explicit - whether the caller named the boards (then they must be the stored ones)
   * @throws BroadcastChangedError when the stored plan has another body, or other named boards
   */
  async plan(fingerprint: string, boards: () => Promise<readonly string[]>, explicit: boolean): Promise<BroadcastPlan> {
    for (let i = 0; i < ATTEMPTS; i++) {
      const stored = await readValue<BroadcastPlan>(this.store, this.planKey(), this.now());
      if (stored.value) return this.checked(stored.value, fingerprint, explicit ? await boards() : undefined);
      const plan: BroadcastPlan = { planId: randomUUID(), fingerprint, boards: [...(await boards())] };
      if (await this.store.write(this.planKey(), stored.version, this.value(plan))) return plan;
    }
    throw new SessionConflictError(`broadcast ${this.id}`, ATTEMPTS);
  }

  /**
   * The cursor of `plan`, and the version its next write must find; the start when there is none (or
   * only an earlier plan's, whose record outlived it).
   * @param plan - the broadcast's plan
   */
  async cursor(plan: BroadcastPlan): Promise<ReadCursor> {
    const { version, value } = await readValue<BroadcastCursor>(this.store, this.cursorKey(), this.now());
    const start: BroadcastCursor = { planId: plan.planId, next: 0, since: undefined, sent: 0, failed: 0, failures: [] };
    return { version, cursor: value?.planId === plan.planId ? { ...start, ...value } : start };
  }

  /**
   * Writes `cursor` if the record still is at `version`.
   * @returns the new version, or undefined when another writer wrote first (read it again)
   */
  async write(version: number, cursor: BroadcastCursor): Promise<number | undefined> {
    const { since, ...rest } = cursor;
    const data = since === undefined ? rest : cursor;
    return (await this.store.write(this.cursorKey(), version, this.value(data))) ? version + 1 : undefined;
  }

  private checked(stored: BroadcastPlan, fingerprint: string, boards: readonly string[] | undefined): BroadcastPlan {
    if (stored.fingerprint !== fingerprint) throw new BroadcastChangedError(this.id, 'body');
    if (boards !== undefined && !sameSet(boards, stored.boards)) throw new BroadcastChangedError(this.id, 'boards');
    return stored;
  }

  private value(data: unknown) {
    return { data, shape: SHAPE, expiresAt: this.now() + this.keepMs, applied: [] };
  }

  private planKey(): string {
    return `boardbot.broadcast:${this.id}`;
  }

  private cursorKey(): string {
    return `boardbot.broadcast:${this.id}:cursor`;
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(b);
  return new Set(a).size === set.size && a.every((x) => set.has(x));
}

/**
 * The cursor once `boards[cursor.next]` was handled: sent, or refused for good with `code`.
 * @param cursor - where the broadcast stood
 * @param boardId - the board just handled
 * @param refused - the contract's error code when the platform refused it for good
 * @param since - when the send to the board after it begins (undefined: there is none, or not yet)
 */
export function advanced(
  cursor: BroadcastCursor,
  boardId: string,
  refused: string | undefined,
  since: number | undefined,
): BroadcastCursor {
  const next = { ...cursor, next: cursor.next + 1, since };
  if (refused === undefined) return { ...next, sent: cursor.sent + 1 };
  const failures =
    cursor.failures.length < MAX_KEPT_FAILURES ? [...cursor.failures, { boardId, code: refused }] : cursor.failures;
  return { ...next, failed: cursor.failed + 1, failures };
}
