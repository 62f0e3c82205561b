import type { HandlerContext } from '../kernel/context.js';
import type { BotRest } from '../kernel/ports.js';
import type { MessageContext } from '../listeners/context.js';
import { memberRole, roleAtLeast } from '../permissions/member-roles.js';
import type { ResolvedAgentOptions } from './agent-options.js';
import { type AgentRuntime, botNow } from './agent-runtime.js';
import { runTurn } from './agent-turn.js';
import type { ApprovalRecord, ApprovalStatus, ApprovalStore } from './approval-store.js';
import { requestText } from './approval-texts.js';
import { type ApprovalAnswer, approvalAnswer } from './approval-words.js';
import { askerContext } from './asker-context.js';
import { showOnRequest } from './show-on-request.js';

/**
 * Whether `who` (the person behind `ctx`) may decide `record`: the asker (unless `approvers.asker` is
 * false), a named user, or a member with one of the roles, read fresh from the board's member list.
 * @param ctx - the answering reply's or command's context
 * @param options - the agent
 * @param record - the approval
 */
export async function mayApprove(
  ctx: HandlerContext,
  options: ResolvedAgentOptions,
  record: ApprovalRecord,
): Promise<boolean> {
  const { asker = true, roles = [], users = [] } = options.approvers;
  const who = ctx.kind === 'command' ? ctx.user.id : ctx.message.author;
  if (who === null) return false;
  if ((asker && who === record.askerId) || users.includes(who)) return true;
  if (roles.length === 0) return false;
  const role = await memberRole(ctx, true);
  return roles.some((r) => roleAtLeast(role, r));
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
  await showOnRequest(rest, record.boardId, record.id, content);
  await store.update(record.id, (r) => (r.shown ? undefined : { ...r, shown: true }));
  await store.unlist(record.id);
}

/** One person's answer to a request. */
export interface GivenAnswer {
  /**
   * What gave it, the same each time its event is handled: the reply's message id, or `command:` and
   * the invocation's id. The answer that decided, handled again (after a crash), resumes the turn again.
   */
  by: string;
  /** The person answering. */
  who: string;
  answer: ApprovalAnswer;
}

/**
 * What came of an answer: the turn resumed (`approved`, `denied`), the request was past its time
 * (`timeout`) or cancelled, another answer had decided it (`decided`), or the person may not decide
 * it (`refused`).
 */
export type AnswerOutcome = ApprovalStatus | 'decided' | 'refused';

/**
 * Takes a person's answer to a pending request, the reply's and the command's alike: only an approver
 * counts, and one compare-and-set decides, so of two answers (on two replicas) one counts and a
 * second decides nothing. The request message is edited to show the outcome; an approved or denied
 * turn resumes in `ctx`'s run, from its saved model input: the AI SDK runs the approved calls (or
 * tells the model they were denied) without asking the model again for the step that asked. The
 * tools are built for the asking person (`askerContext`), whoever approved. A slash invocation past
 * its interaction's 15 minutes answers on the board instead (a reply to the asking message).
 *
 * @param ctx - the answering reply's or command's context: the resumed turn answers through it
 * @param agent - the agent
 * @param found - the request answered
 * @param given - the answer
 */
export async function answerRequest(
  ctx: HandlerContext,
  agent: AgentRuntime,
  found: ApprovalRecord,
  given: GivenAnswer,
): Promise<AnswerOutcome> {
  const { options } = agent;
  const store = agent.store(ctx);
  const log = ctx.log.child({ agent: options.name, approval: found.id });
  // A decided request decides nothing, unless this answer decided it (its event handled again).
  if (found.status !== 'pending' && found.decidedBy !== given.by) return 'decided';
  if (!(await mayApprove(ctx, options, found))) {
    agent.count('ignored');
    log.info({ by: given.who }, 'approval answer ignored: not an approver');
    return 'refused';
  }
  const late = ctx.session(botNow) > found.expiresAt;
  const status: ApprovalStatus = late ? 'timeout' : given.answer === 'approve' ? 'approved' : 'denied';
  const decided = await store.update(found.id, (r) =>
    r.status === 'pending' ? { ...r, status, decidedBy: given.by, decider: late ? 'timeout' : given.who } : undefined,
  );
  const record = decided ?? (await store.get(found.id));
  if (record === undefined || record.decidedBy !== given.by) return 'decided';
  if (decided) {
    agent.count(status);
    log.info({ by: given.who, decision: record.status }, 'approval decided');
  }
  await showDecision(ctx.rest, store, record, options);
  if (record.status !== 'approved' && record.status !== 'denied') return record.status;
  const approved = record.status === 'approved';
  const responses = record.calls.map((c) => ({
    type: 'tool-approval-response' as const,
    approvalId: c.approvalId,
    approved,
    ...(approved ? {} : { reason: 'The approver denied it.' }),
  }));
  const messages = [...record.messages, { role: 'tool' as const, content: responses }];
  const asker = askerContext(ctx, record.asker);
  const voice = interactionExpired(ctx) ? asker : ctx;
  await runTurn(voice, asker, agent, { messages, toolCalls: record.toolCalls, asker: record.asker });
  return record.status;
}

/**
 * Whether `ctx` is a slash invocation past its interaction's 15 minutes (handled late, or again after
 * a restart): the resumed turn then answers on the board, as a reply to the asking message, since
 * the token can no longer answer (and, handled again, could not tell whether it had).
 */
function interactionExpired(ctx: HandlerContext): boolean {
  if (ctx.kind !== 'command' || ctx.via !== 'slash') return false;
  return ctx.session(botNow) >= Date.parse(ctx.interaction.expires_at);
}

/**
 * Takes a reply to a pending request as its answer, when its whole text is one of `APPROVAL_WORDS`
 * (see {@link answerRequest}). Any other reply, or a reply to anything else, is not an answer.
 *
 * @param ctx - the reply's context
 * @param agent - the agent
 */
export async function decide(ctx: MessageContext, agent: AgentRuntime): Promise<void> {
  const { message } = ctx;
  const answer = approvalAnswer(message.content);
  if (message.reply_to === null || answer === undefined || message.author === null) return;
  const found = await agent.store(ctx).get(message.reply_to);
  if (found === undefined) return;
  await answerRequest(ctx, agent, found, { by: message.id, who: message.author, answer });
}
