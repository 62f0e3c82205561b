import { BotStateError, SessionConflictError } from '../errors.js';
import type { SessionStore } from '../sessions/session-store.js';

/** One message of an answer: where it is and its id. */
export interface AnswerPart {
  readonly boardId: string;
  readonly messageId: string;
  /** What an edit cannot change (an editable answer's embeds), as a fingerprint; absent for a streamed part. */
  readonly look?: string;
}

/** What a record holds: the parts, and the event whose run wrote them last, if it said. */
export interface AnswerLink {
  parts: AnswerPart[];
  /** The gateway event id of the run that wrote the record last. */
  by: string | undefined;
}

/** Bounds of an {@link AnswerRecord}. */
export interface AnswerRecordOptions {
  /** How long a record lives after its last write. @defaultValue 24 hours (the platform's idempotency window) */
  ttlMs?: number;
  /** Most parts one record keeps. @defaultValue 64 */
  maxParts?: number;
}

/** The defaults of {@link AnswerRecordOptions}. */
export const DEFAULT_ANSWER_RECORD_OPTIONS = {
  ttlMs: 24 * 60 * 60 * 1000,
  maxParts: 64,
} as const satisfies Required<AnswerRecordOptions>;

// Compare-and-set attempts of one write (each lost to another writer of the same record).
const ATTEMPTS = 20;
// The records' own shape number, apart from the sessions' versions.
const SHAPE = 1;

/**
 * Which messages answer something, kept in the bot's session store (shared by replicas, bounded,
 * expiring): a streamed answer's parts under the answer's key, so that its event handled again after
 * a crash edits those messages and deletes the extra ones instead of posting new ones; and, keyed by
 * a person's message, the answers that follow its edits.
 */
export class AnswerRecord {
  private readonly ttlMs: number;
  private readonly maxParts: number;

  /**
   * @param store - the bot's session store
   * @param now - the clock, in milliseconds
   * @param options - the record's life and size
   */
  constructor(
    private readonly store: SessionStore,
    private readonly now: () => number,
    options: AnswerRecordOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_ANSWER_RECORD_OPTIONS.ttlMs;
    this.maxParts = options.maxParts ?? DEFAULT_ANSWER_RECORD_OPTIONS.maxParts;
  }

  /** The parts recorded under `key`, in order; none when there is no record or it expired. */
  async read(key: string): Promise<AnswerPart[]> {
    return (await this.find(key))?.parts ?? [];
  }

  /**
   * The record under `key`: its parts, in order, and who wrote it; undefined when there is none or
   * it expired (an empty record is a link to no answer yet: an editable handler that said nothing).
   */
  async find(key: string): Promise<AnswerLink | undefined> {
    const record = await this.store.read(storeKey(key));
    const value = record?.value;
    if (!value || (value.expiresAt !== null && value.expiresAt <= this.now())) return undefined;
    const data = value.data as { parts?: unknown; by?: unknown } | null;
    const parts = Array.isArray(data?.parts) ? data.parts.filter(isPart) : [];
    return { parts, by: typeof data?.by === 'string' ? data.by : undefined };
  }

  /**
   * Records `parts` under `key` (replacing what was there) and restarts its life.
   * @param by - the event whose run writes it (an editable answer's link says, a stream's does not)
   * @throws BotStateError when there are more than `maxParts`
   * @throws SessionConflictError when other writers of the same key won every attempt
   */
  async write(key: string, parts: readonly AnswerPart[], by?: string): Promise<void> {
    if (parts.length > this.maxParts) {
      throw new BotStateError(`An answer record keeps at most ${this.maxParts} parts, got ${parts.length}.`);
    }
    const k = storeKey(key);
    const data = {
      parts: parts.map(({ boardId, messageId, look }) =>
        look === undefined ? { boardId, messageId } : { boardId, messageId, look },
      ),
      ...(by !== undefined && { by }),
    };
    for (let i = 0; i < ATTEMPTS; i++) {
      const version = (await this.store.read(k))?.version ?? 0;
      const value = { data, shape: SHAPE, expiresAt: this.now() + this.ttlMs, applied: [] };
      if (await this.store.write(k, version, value)) return;
    }
    throw new SessionConflictError(`answer record ${key}`, ATTEMPTS);
  }
}

function storeKey(key: string): string {
  return `boardbot.answer:${key}`;
}

function isPart(value: unknown): value is AnswerPart {
  const v = value as Partial<AnswerPart> | null;
  return typeof v?.boardId === 'string' && typeof v.messageId === 'string';
}
