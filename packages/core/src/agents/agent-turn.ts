import type { ModelMessage } from 'ai';
import type { Scoped } from '../kernel/scoped.js';
import type { MessageContext } from '../listeners/context.js';
import type { ResolvedAgentOptions } from './agent-options.js';
import type { ApprovalStore, ApprovalToolCall } from './approval-store.js';
import { requestText } from './approval-texts.js';
import { auditedTools } from './audited-tools.js';
import { TurnAnswer } from './turn-answer.js';

/** The bot's clock, read through a context (as every feature reads it). */
export const botNow: Scoped<number> = { open: (scope) => scope.now() };

/** Where a turn starts or resumes: its model input and the tool calls it already made. */
export interface TurnStart {
  messages: ModelMessage[];
  /** Tool calls of the turn before this part of it (its bound counts them all). */
  toolCalls: number;
  /** Who asked: the message's author, unless the turn resumes (then the first asker). */
  askerId?: string;
}

/**
 * Runs (part of) an agent's turn on `ctx`: the model answers, calling the tools, streamed as the
 * answer. When a step asks for approvals, the turn is suspended: the request is posted (a reply to
 * `ctx`'s message, under the run's next write key, so the event handled again posts nothing new) and
 * the turn's model input up to that step is saved, to be resumed by the approving reply.
 *
 * @param ctx - the asking message's context, or the approving reply's
 * @param options - the agent
 * @param store - its approvals
 * @param start - the model input and the calls made so far
 */
export async function runTurn(
  ctx: MessageContext,
  options: ResolvedAgentOptions,
  store: ApprovalStore,
  start: TurnStart,
): Promise<void> {
  const { streamText, stepCountIs } = await import('ai');
  const log = ctx.log.child({ agent: options.name });
  const answer = new TurnAnswer(ctx, options.progress);
  const turn = {
    agent: options.name,
    calls: start.toolCalls,
    maxCalls: options.maxToolCalls,
    log,
    onCall: (name: string) => answer.toolCall(name),
  };
  const tools = auditedTools((await options.tools?.(ctx)) ?? {}, turn);
  const result = streamText({
    model: options.model,
    ...(options.system === undefined ? {} : { system: options.system }),
    messages: start.messages,
    tools,
    stopWhen: stepCountIs(options.maxSteps),
    abortSignal: ctx.signal,
  });
  let failure: unknown;
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') answer.push(part.text);
    else if (part.type === 'error') failure = part.error;
  }
  const requests =
    failure === undefined ? (await result.content).filter((p) => p.type === 'tool-approval-request') : [];
  // A step that only asks for approval posts the request alone; else the answer, even empty.
  await answer.end(requests.length === 0, failure);
  if (requests.length === 0) return;
  const calls: ApprovalToolCall[] = requests.map((r) => ({
    approvalId: r.approvalId,
    toolName: r.toolCall.toolName,
    input: r.toolCall.input,
  }));
  const askedAt = ctx.session(botNow);
  const pending = { calls, status: 'pending' as const };
  const request = await ctx.reply(requestText(pending, Math.round(options.approvalTimeoutMs / 60_000)));
  const messages = [...start.messages, ...(await result.response).messages];
  await store.save({
    ...pending,
    id: request.id,
    agent: options.name,
    boardId: ctx.boardId,
    askerId: start.askerId ?? ctx.message.author ?? '',
    messages,
    askedAt,
    expiresAt: askedAt + options.approvalTimeoutMs,
    toolCalls: turn.calls,
  });
  log.info({ approval: request.id, tools: calls.map((c) => c.toolName) }, 'agent turn waits for approval');
}
