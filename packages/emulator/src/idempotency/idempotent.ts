import { createHash } from 'node:crypto';
import { PlatformError } from '../errors.js';
import type { Outbox } from '../platform/outbox.js';
import type { Platform } from '../platform/platform.js';

/** The `Idempotency-Key` of a request, the credential it is scoped to, and the request's fingerprint. */
export interface IdempotencyGuard {
  scope: string;
  key: string;
  fingerprint: string;
}

/** An answer to send: a status and its JSON body text. */
export interface StoredAnswer {
  status: number;
  body: string;
  /** True when this is the replay of the first answer to the same key. */
  replayed: boolean;
}

/**
 * Fingerprint of a request for `422 idempotency_key_reused`: its method, its target (the matched
 * route and its parameters) and its body.
 */
export function fingerprint(method: string, target: unknown, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${JSON.stringify(target)}\n${JSON.stringify(body ?? null)}`)
    .digest('base64url');
}

// Expired records are swept every this many stored keys, inside the write, so the table stays bounded.
const SWEEP_EVERY = 1000;

/**
 * Runs a write guarded by an `Idempotency-Key` (CONTRACT): the same key from the same credential
 * within the TTL replays the first answer (same status and body, no new message, no new event); with
 * a different request it is `422 idempotency_key_reused`. The record is stored in the same transaction
 * as the write, so a crash can never leave a message without its key or a key without its message.
 * Only successful answers are stored: a failed request changed nothing and may simply be retried.
 */
export function runIdempotent(
  p: Platform,
  guard: IdempotencyGuard | undefined,
  run: (out: Outbox) => { status: number; body: string },
): StoredAnswer {
  return p.write((out) => {
    const now = p.now();
    if (guard) {
      const record = p.store.idempotency.get(guard.scope, guard.key);
      if (record && record.created_at_ms > now - p.limits.idempotencyTtlMs) {
        if (record.fingerprint !== guard.fingerprint) {
          throw new PlatformError(
            'idempotency_key_reused',
            'This Idempotency-Key was used with a different request: use a new key for a new request',
          );
        }
        return { status: record.status, body: record.body, replayed: true };
      }
    }
    const answer = run(out);
    if (guard) {
      const puts = p.store.idempotency.put(guard.scope, guard.key, {
        fingerprint: guard.fingerprint,
        status: answer.status,
        body: answer.body,
        created_at_ms: now,
      });
      if (puts % SWEEP_EVERY === 0) p.store.idempotency.prune(now - p.limits.idempotencyTtlMs);
    }
    return { ...answer, replayed: false };
  });
}
