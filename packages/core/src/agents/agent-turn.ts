import { createHash } from 'node:crypto';
import type { ModelMessage } from 'ai';
import type { MessageContext } from '../listeners/context.js';
import { type AgentRuntime, botNow } from './agent-runtime.js';
import type { ApprovalToolCall, TurnAsker } from './approval-store.js';
import { requestText } from './approval-texts.js';
import { auditedTools } from './audited-tools.js';
import { TurnAnswer, type TurnVoice } from './turn-answer.js';

/** Where a turn starts or resumes: its model input and the tool calls it already made. */
export interface TurnStart {
  messages: ModelMessage[];
  /** Tool calls of the turn before this part of it (its bound counts them all). */
  toolCalls: number;
  /** Whom the turn acts for: the asking message, its author and their locale. */
  asker: TurnAsker;
}

/**
 * Runs (part of) an agent's turn in `ctx`'s run: the model answers, calling the tools, streamed as
 * the answer. The tools are built on `asker`, the asking person's context, whoever runs the turn.
 * When a step asks for approvals, the turn is suspended: the request is posted (`ctx`'s reply, under
 * the run's next write key, so the event handled again posts nothing new) and the turn's model input
 * up to that step is saved, with whom it acts for, to be resumed by the approving reply or command.
 * Once it answered (or asked), the turn's record says so: run again, this part posts nothing.
 *
 * @param ctx - the asking message's context, or the approving reply's or command's
 * @param asker - the asking person's context (`ctx` itself when it is the asking message's)
 * @param agent - the agent
 * @param start - the model input and the calls made so far
 */
export async function runTurn(
  ctx: TurnVoice,
  asker: MessageContext,
  agent: AgentRuntime,
  start: TurnStart,
): Promise<void> {
  const { options } = agent;
  const { streamText, stepCountIs } = await import('ai');
  const log = ctx.log.child({ agent: options.name });
  const answer = new TurnAnswer(ctx, options.progress);
  const turn = {
    agent: options.name,
    calls: start.toolCalls,
    maxCalls: options.maxToolCalls,
    log,
    onCall: (name: string) => answer.toolCall(name),
    writes: agent.writes(ctx, start.asker.message.id),
  };
  // This part of the turn ended before (its event handled again, perhaps past the 24 h in which the
  // platform and the stream's own record would know its answer): nothing of it is run again.
  const part = start.messages.length;
  if (await turn.writes.hasEnded(part)) {
    log.info({ turn: start.asker.message.id }, 'agent turn already answered: its record says so');
    return;
  }
  const tools = auditedTools((await options.tools?.(asker)) ?? {}, turn);
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
  if (requests.length === 0) return turn.writes.end(part);
  const calls: ApprovalToolCall[] = requests.map((r) => ({
    approvalId: r.approvalId,
    toolName: r.toolCall.toolName,
    input: r.toolCall.input,
  }));
  const askedAt = ctx.session(botNow);
  // The code `/approve` names it by: the same when the event is handled again (the request's text
  // must be too, under the same write key).
  const code = createHash('sha256').update(ctx.idempotencyKey('approval')).digest('hex').slice(0, 6);
  const pending = { calls, code, status: 'pending' as const };
  const request = await ctx.reply(requestText(pending, Math.round(options.approvalTimeoutMs / 60_000)));
  const messages = [...start.messages, ...(await result.response).messages];
  await agent.store(ctx).save({
    ...pending,
    id: request.id,
    agent: options.name,
    boardId: ctx.boardId,
    askerId: start.asker.message.author ?? '',
    asker: start.asker,
    messages,
    askedAt,
    expiresAt: askedAt + options.approvalTimeoutMs,
    toolCalls: turn.calls,
  });
  await turn.writes.end(part);
  agent.count('requested');
  log.info({ approval: request.id, tools: calls.map((c) => c.toolName) }, 'agent turn waits for approval');
}
