import type { Message, UserProfile } from '@boardbot/protocol';
import type { ModelMessage } from 'ai';
import type { SessionStore } from '../sessions/session-store.js';
import { changeValue, readValue } from '../sessions/store-values.js';

/** How an approval request stands: waiting, or how it was decided. */
export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'timeout' | 'cancelled';

/**
 * Who a turn acts for, kept with a suspended turn: the asking message, its author's profile and the
 * locale they were answered in. Their roles are not kept: a command run as them is checked by its
 * guards when it runs, as their own invocation would be (a person demoted while the turn waited is
 * refused).
 */
export interface TurnAsker {
  /** The message that began the turn: what its tools reply to, read the thread of, and act for. */
  message: Message;
  /** Its author's profile; null for a webhook's message. */
  profile: UserProfile | null;
  /** The locale the turn spoke in when it was asked (`ctx.locale`). */
  locale: string;
  /**
   * Whether `message` stands in for a slash invocation (its id the interaction's, its text the
   * command as typed; not on the board): what the turn answers on the board then replies to nothing.
   */
  standIn?: true;
}

/** One tool call waiting for approval, as the AI SDK asked for it. */
export interface ApprovalToolCall {
  /** The AI SDK's approval id, answered by a `tool-approval-response`. */
  approvalId: string;
  toolName: string;
  input: unknown;
}

/**
 * A suspended turn, kept in the bot's session store under its request message's id until decided
 * (and for a day after, so an approving event handled again reads how it was decided).
 */
export interface ApprovalRecord {
  /** The request message's id: the approval's id. */
  id: string;
  /** The short code the request shows, for `/approve <code>` (none in a request saved before it had one). */
  code?: string;
  agent: string;
  boardId: string;
  /** Who asked (the turn's person). */
  askerId: string;
  /** Whom the turn acts for when it resumes: the asking message, its author, their locale. */
  asker: TurnAsker;
  /** The turn's model input up to and including the step that asked for approval. */
  messages: ModelMessage[];
  /** The tool calls of that step that wait for approval (one decision answers them all). */
  calls: ApprovalToolCall[];
  status: ApprovalStatus;
  /** Tool calls the turn made before it was suspended (its bound counts them all). */
  toolCalls: number;
  /** When it was asked, and past when it is denied (epoch ms). */
  askedAt: number;
  expiresAt: number;
  /** The message that decided it (an approving event handled again resumes the turn again). */
  decidedBy?: string;
  /** Who decided it (a user id), or `timeout` / `cancel`. */
  decider?: string;
  /** Whether the request message shows the decision yet. */
  shown?: boolean;
}

/** How long a decided record is kept, for an approving event handled again. */
const KEPT_MS = 24 * 3_600_000;
/** When a record expires: a day after its own timeout (dated by the bot's clock when it was asked). */
const kept = (r: ApprovalRecord): number => r.expiresAt + KEPT_MS;

/** The store key of one approval. */
export const approvalKey = (agent: string, id: string): string => `agent:${agent}:approval:${id}`;
/** The store key of the id of the approval whose request shows `code`. */
const codeKey = (agent: string, code: string): string => `agent:${agent}:approval-code:${code}`;
/** The store key of an agent's pending approvals' ids. */
const indexKey = (agent: string): string => `agent:${agent}:approvals`;

/** An agent's approvals in the store: the records, and the index of the pending ones. */
export class ApprovalStore {
  /**
   * @param store - the bot's session store, shared by its replicas
   * @param agent - the agent's name
   * @param now - the bot's clock (for `list()` and `cancel()`, which run outside the bot, a time
   *   that reads every value as live: the store itself drops the expired ones)
   */
  constructor(
    private readonly store: SessionStore,
    private readonly agent: string,
    private readonly now: () => number,
  ) {}

  /** Saves a new request (an asking event handled again saves the same one), its code, and lists it. */
  async save(record: ApprovalRecord): Promise<void> {
    await changeValue<ApprovalRecord>(
      this.store,
      approvalKey(this.agent, record.id),
      (c) => c ?? record,
      kept,
      this.now,
    );
    if (record.code) {
      const id = record.id;
      await changeValue<string>(
        this.store,
        codeKey(this.agent, record.code),
        (c) => c ?? id,
        () => kept(record),
        this.now,
      );
    }
    await this.index((ids) => (ids.includes(record.id) ? undefined : [...ids, record.id]));
  }

  /**
   * The approval a person names: by the code its request shows, or by its id; decided or not.
   * @param named - the code or the id
   */
  async named(named: string): Promise<ApprovalRecord | undefined> {
    const byCode = await readValue<string>(this.store, codeKey(this.agent, named.toLowerCase()), this.now());
    return this.get(byCode.value ?? named);
  }

  /** The approval of request message `id`, if there is one. */
  async get(id: string): Promise<ApprovalRecord | undefined> {
    return (await readValue<ApprovalRecord>(this.store, approvalKey(this.agent, id), this.now())).value;
  }

  /**
   * Changes an approval by compare-and-set.
   * @param id - its request message's id
   * @param change - the changed record, or undefined to leave it
   */
  update(id: string, change: (r: ApprovalRecord) => ApprovalRecord | undefined): Promise<ApprovalRecord | undefined> {
    return changeValue<ApprovalRecord>(this.store, approvalKey(this.agent, id), (c) => c && change(c), kept, this.now);
  }

  /** The ids of the approvals not yet shown as decided. */
  async ids(): Promise<string[]> {
    return (await readValue<string[]>(this.store, indexKey(this.agent), this.now())).value ?? [];
  }

  /** Drops `id` from the index, once its request message shows the decision. */
  async unlist(id: string): Promise<void> {
    await this.index((ids) => (ids.includes(id) ? ids.filter((i) => i !== id) : undefined));
  }

  private index(change: (ids: string[]) => string[] | undefined): Promise<unknown> {
    return changeValue<string[]>(
      this.store,
      indexKey(this.agent),
      (c) => change(c ?? []),
      () => this.now() + KEPT_MS,
      this.now,
    );
  }
}
