import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Member, Message } from '@boardbot/protocol';
import type { BotRest } from '../kernel/ports.js';
import { roleAtLeast } from '../permissions/member-roles.js';
import type { ApprovalStatus } from './approval-store.js';
import { decidedText } from './approval-texts.js';
import { type ApprovalAnswer, approvalAnswer } from './approval-words.js';
import { showOnRequest } from './show-on-request.js';

/** Who may approve a write asked for by an agent outside the bot: these people, or members with a role. */
export interface OutsideApprovers {
  /** Board roles whose members may approve (`'admin'` also admits owners). @defaultValue none */
  roles?: readonly ('owner' | 'admin' | 'member')[];
  /** User ids who may approve. @defaultValue none */
  users?: readonly string[];
}

/** Options of {@link boardApproval}. */
export interface BoardApprovalOptions {
  /** Who may approve. */
  approvers: OutsideApprovers;
  /**
   * How long one ask waits for an answer before it says the request is still pending (below an MCP
   * client's usual request timeout, 60 s). @defaultValue 50000
   */
  waitMs?: number;
  /** How often the request's replies are read while it waits (one REST call, in the rate limit). @defaultValue 2000 */
  pollMs?: number;
}

/** The defaults of {@link BoardApprovalOptions}. */
export const DEFAULT_BOARD_APPROVAL_OPTIONS = { waitMs: 50_000, pollMs: 2_000 } as const;

/** One write an agent asks for. */
export interface ApprovalAsk {
  /** The board the request is posted on (the write's). */
  boardId: string;
  /** The write, as approvers read it (the tool and its arguments). */
  what: string;
  /**
   * Makes the request itself idempotent: asked again with the same key (board and write), the same
   * request message is read again (24 h), so an agent may keep waiting across calls.
   * @defaultValue none: each ask posts a new request
   */
  key?: string | undefined;
  /**
   * Ends the wait when the asker gives up (an MCP client cancelled its call): the outcome is pending.
   * @defaultValue none: it waits `waitMs`
   */
  signal?: AbortSignal | undefined;
}

/** How an ask ended: decided by an approver, or still pending when the wait ended. */
export type ApprovalOutcome =
  | { decision: ApprovalAnswer; by: string; requestId: string }
  | { decision: 'pending'; requestId: string };

/** Whether `who` may approve: named, or a member of the board with one of the roles. */
function mayApprove(who: string, approvers: OutsideApprovers, members: Member[] | undefined): boolean {
  if (approvers.users?.includes(who)) return true;
  const role = members?.find((m) => m.user.id === who)?.role;
  return (approvers.roles ?? []).some((least) => roleAtLeast(role, least));
}

/** Most messages after the request that are read for its replies: a board that moved on further decides nothing. */
const MAX_READ = 1000;

/** The first reply to the request, oldest first, that decides it: an approval word from an approver. */
async function decision(
  rest: Pick<BotRest, 'iterateMessages' | 'listMembers'>,
  request: Message,
  approvers: OutsideApprovers,
): Promise<{ decision: ApprovalAnswer; by: string } | undefined> {
  const replies: Message[] = [];
  for await (const m of rest.iterateMessages(request.board_id, { untilSeq: request.seq, max: MAX_READ })) {
    if (m.reply_to === request.id && m.author !== null && m.deleted_at === null) replies.unshift(m);
  }
  let members: Member[] | undefined;
  for (const reply of replies) {
    const answer = approvalAnswer(reply.content);
    if (answer === undefined || reply.author === null) continue;
    if (!approvers.users?.includes(reply.author)) members ??= await rest.listMembers(request.board_id);
    if (mayApprove(reply.author, approvers, members)) return { decision: answer, by: reply.author };
  }
  return undefined;
}

/**
 * A person's approval on the board for writes asked by an agent outside the bot (the MCP server's
 * `approval`): each ask posts a request on the write's board and reads its replies until an approver
 * answers with one of the agents' approval words (`APPROVAL_WORDS`: yes, no, oui, nein...), or
 * `waitMs` passes (then it is pending: ask again with the same key to keep waiting on the same
 * request). Replies of people who may not approve decide nothing. Once decided, the request message
 * is edited to show it, as the agents' own requests are (`✅ Approved by`, `❌ Denied by`), once
 * however often it is asked again; a request asked without a key that no one answered in time is
 * shown as over (`⌛`, `🚫` when the asker gave up: its `signal`), since no later ask waits on it.
 *
 * @param rest - the app's client: the request and the reads go through its rate limit
 * @param options - the approvers, how long an ask waits, how often it reads
 * @returns the ask
 */
export function boardApproval(
  rest: Pick<BotRest, 'sendMessage' | 'editMessage' | 'iterateMessages' | 'listMembers'>,
  options: BoardApprovalOptions,
): (ask: ApprovalAsk) => Promise<ApprovalOutcome> {
  const { approvers, waitMs = DEFAULT_BOARD_APPROVAL_OPTIONS.waitMs } = options;
  const pollMs = options.pollMs ?? DEFAULT_BOARD_APPROVAL_OPTIONS.pollMs;
  return async ({ boardId, what, key, signal }) => {
    const basis = (
      key === undefined ? randomUUID() : createHash('sha256').update(`${boardId}\n${what}\n${key}`).digest('base64url')
    ).slice(0, 22);
    const content = `🔐 An agent asks to run:\n${what}\nReply **yes** or **no** to this message.`;
    const request = await rest.sendMessage(boardId, { content }, { idempotencyKey: `approval.${basis}` });
    // Each outcome's edit under its own key: asked again (the same key), the edit is replayed, not made twice.
    const show = (status: Exclude<ApprovalStatus, 'pending'>, by?: string) =>
      showOnRequest(
        rest,
        boardId,
        request.id,
        decidedText(status, by, what),
        `approval.${basis}.${status}${by === undefined ? '' : `.${by}`}`,
      );
    // Without a key, no later ask can wait on this request: once this one stops waiting, it is over, and shown so.
    const unanswered = async (status: 'timeout' | 'cancelled'): Promise<ApprovalOutcome> => {
      if (key === undefined) await show(status);
      return { decision: 'pending', requestId: request.id };
    };
    const until = Date.now() + waitMs;
    for (;;) {
      const decided = await decision(rest, request, approvers);
      if (decided) {
        await show(decided.decision === 'approve' ? 'approved' : 'denied', decided.by);
        return { ...decided, requestId: request.id };
      }
      if (signal?.aborted) return unanswered('cancelled');
      const left = until - Date.now();
      if (left <= 0) return unanswered('timeout');
      // Rejects only when the signal aborts, which the next turn reads.
      await delay(Math.min(pollMs, left), undefined, { signal }).catch(() => undefined);
    }
  };
}
