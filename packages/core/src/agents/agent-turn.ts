import type { ModelMessage, TextStreamPart, ToolSet } from 'ai';
import type { Scoped } from '../kernel/scoped.js';
import type { MessageContext } from '../listeners/context.js';
import type { ResolvedAgentOptions } from './agent-options.js';
import type { ApprovalStore, ApprovalToolCall } from './approval-store.js';
import { requestText } from './approval-texts.js';
import { auditedTools } from './audited-tools.js';

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

type Part = TextStreamPart<ToolSet>;

/** The rest of the answer's text, after its first piece (`first`), failing on the stream's error. */
async function* textAfter(first: string, parts: AsyncIterator<Part>): AsyncGenerator<string> {
  yield first;
  for (let next = await parts.next(); !next.done; next = await parts.next()) {
    if (next.value.type === 'text-delta') yield next.value.text;
    else if (next.value.type === 'error') throw next.value.error;
  }
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
  const turn = { agent: options.name, calls: start.toolCalls, maxCalls: options.maxToolCalls, log };
  const tools = auditedTools((await options.tools?.(ctx)) ?? {}, turn);
  const result = streamText({
    model: options.model,
    ...(options.system === undefined ? {} : { system: options.system }),
    messages: start.messages,
    tools,
    stopWhen: stepCountIs(options.maxSteps),
    abortSignal: ctx.signal,
  });
  // The answer is posted once there is text: a step that only asks for approval posts the request alone.
  const parts = result.fullStream[Symbol.asyncIterator]();
  let first: string | undefined;
  for (let next = await parts.next(); !next.done; next = await parts.next()) {
    if (next.value.type === 'error') throw next.value.error;
    if (next.value.type === 'text-delta' && next.value.text !== '') {
      first = next.value.text;
      break;
    }
  }
  if (first !== undefined) await ctx.stream(textAfter(first, parts));
  const requests = (await result.content).filter((p) => p.type === 'tool-approval-request');
  if (requests.length === 0) {
    if (first === undefined) await ctx.stream(textAfter('', parts));
    return;
  }
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
