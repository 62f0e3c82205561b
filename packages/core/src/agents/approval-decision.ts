import type { BotRest } from '../kernel/ports.js';
import type { MessageContext } from '../listeners/context.js';
import { memberRole } from '../permissions/member-roles.js';
import type { ResolvedAgentOptions } from './agent-options.js';
import { botNow, runTurn } from './agent-turn.js';
import type { ApprovalRecord, ApprovalStatus, ApprovalStore } from './approval-store.js';
import { requestText } from './approval-texts.js';
import { approvalAnswer } from './approval-words.js';
import { approvalCounter } from './audited-tools.js';

const RANK = { app: 0, member: 1, admin: 2, owner: 3 } as const;

/** Whether the author of `ctx`'s message may decide `record`. */
async function mayApprove(
  ctx: MessageContext,
  options: ResolvedAgentOptions,
  record: ApprovalRecord,
): Promise<boolean> {
  const { asker = true, roles = [], users = [] } = options.approvers;
  const who = ctx.message.author;
  if (who === null) return false;
  if ((asker && who === record.askerId) || users.includes(who)) return true;
  if (roles.length === 0) return false;
  const role = await memberRole(ctx, true);
  return role !== undefined && roles.some((r) => RANK[role] >= RANK[r]);
}

/**
 * Edits the request message to show how it was decided, then drops it from the pending ones.
 * @param rest - a REST client of the run that decided
 * @param store - the agent's approvals
 * @param record - the decided approval
 * @param options - the agent
 */
export async function showDecision(
  rest: BotRest,
  store: ApprovalStore,
  record: ApprovalRecord,
  options: ResolvedAgentOptions,
): Promise<void> {
  const content = requestText(record, Math.round(options.approvalTimeoutMs / 60_000));
  await rest.editMessage(record.boardId, record.id, { content });
  await store.update(record.id, (r) => (r.shown ? undefined : { ...r, shown: true }));
  await store.unlist(record.id);
}

/**
 * Takes a reply to a pending request as its decision, when it is one: its words approve or deny
 * (`APPROVAL_WORDS`), its author may decide, and no answer decided it before. One compare-and-set
 * decides, so of two answers (on two replicas) one counts. The request message is edited to show the
 * outcome; an approved or denied turn resumes here, from its saved model input: the AI SDK runs the
 * approved calls (or tells the model they were denied) without asking the model again for the step
 * that asked. The same reply handled again (after a crash) resumes it again, under the same write keys.
 *
 * @param ctx - the reply's context
 * @param options - the agent
 * @param store - its approvals
 */
export async function decide(ctx: MessageContext, options: ResolvedAgentOptions, store: ApprovalStore): Promise<void> {
  const { message } = ctx;
  const answer = approvalAnswer(message.content);
  if (message.reply_to === null || answer === undefined) return;
  const found = await store.get(message.reply_to);
  if (found === undefined) return;
  const log = ctx.log.child({ agent: options.name, approval: found.id });
  // A reply to a decided request decides nothing, unless it is the one that decided (handled again).
  if (found.status !== 'pending' && found.decidedBy !== message.id) return;
  if (!(await mayApprove(ctx, options, found))) {
    approvalCounter.add(1, { agent: options.name, decision: 'ignored' });
    log.info({ by: message.author }, 'approval answer ignored: not an approver');
    return;
  }
  const late = ctx.session(botNow) > found.expiresAt;
  const status: ApprovalStatus = late ? 'timeout' : answer === 'approve' ? 'approved' : 'denied';
  const decided = await store.update(found.id, (r) =>
    r.status === 'pending'
      ? { ...r, status, decidedBy: message.id, decider: late ? 'timeout' : (message.author ?? '') }
      : undefined,
  );
  const record = decided ?? (await store.get(found.id));
  if (record === undefined || record.decidedBy !== message.id) return;
  if (decided) {
    approvalCounter.add(1, { agent: options.name, decision: record.status });
    log.info({ by: message.author, decision: record.status }, 'approval decided');
  }
  await showDecision(ctx.rest, store, record, options);
  if (record.status !== 'approved' && record.status !== 'denied') return;
  const approved = record.status === 'approved';
  const responses = record.calls.map((c) => ({
    type: 'tool-approval-response' as const,
    approvalId: c.approvalId,
    approved,
    ...(approved ? {} : { reason: 'The approver denied it.' }),
  }));
  const messages = [...record.messages, { role: 'tool' as const, content: responses }];
  await runTurn(ctx, options, store, { messages, toolCalls: record.toolCalls, askerId: record.askerId });
}
