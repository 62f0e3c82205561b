import type { ModelMessage } from 'ai';
import { toModelMessages } from '../answers/model-messages.js';
import type { CommandContext } from '../commands/context.js';
import { AgentBoundError, InvalidHandlerError } from '../errors.js';
import type { Class } from '../kernel/metadata.js';
import type { Services } from '../kernel/services.js';
import type { MessageContext } from '../listeners/context.js';
import { OnMessage } from '../listeners/on-message.js';
import type { Plugin } from '../plugins/plugin.js';
import type { ScheduleContext } from '../schedules/context.js';
import { Every } from '../schedules/every.js';
import { SESSION_STORE } from '../sessions/service.js';
import { changeValue } from '../sessions/store-values.js';
import { type AgentOptions, DEFAULT_AGENT_OPTIONS, type ResolvedAgentOptions } from './agent-options.js';
import { AgentRuntime, botNow, registerAgent, servicesOf } from './agent-runtime.js';
import { runTurn } from './agent-turn.js';
import { decide, showDecision } from './approval-decision.js';
import { type ApprovalRecord, ApprovalStore, type TurnAsker } from './approval-store.js';
import { askerContext, askerOf } from './asker-context.js';

/** A pending approval, as `approvals.list()` gives it. */
export type PendingApproval = Omit<ApprovalRecord, 'messages' | 'asker' | 'decidedBy' | 'decider' | 'shown'>;

/** The pending approvals of an agent, once its plugin is among the bot's. */
export interface AgentApprovals {
  /** The approvals waiting for an answer, oldest first. */
  list(): Promise<PendingApproval[]>;
  /**
   * Cancels a pending approval: its turn ends, its request message shows it at the next sweep.
   * @param id - its id (the request message's)
   * @returns whether it was pending
   */
  cancel(id: string): Promise<boolean>;
}

/** An agent: its turns (`answer`), its plugin (the approvals' listener and sweep), its approvals. */
export interface AgentDefinition {
  readonly options: ResolvedAgentOptions;
  /**
   * Runs a turn for `ctx`'s message or command: the model answers from `messages`, streamed as the
   * handler's answer (a reply, or the interaction's answer); a tool that needs approval suspends the
   * turn until an approver answers (see docs/assistants.md, "Approvals"). The tools act for the person
   * who asked; a slash invocation's turn builds them on a stand-in for the invocation (`ctx.message`:
   * the interaction's id, the command as typed, not on the board).
   * @param ctx - the asking message's context, or the asking command's (slash or text)
   * @param messages - the model input @defaultValue a message's thread (`toModelMessages(await
   *   ctx.thread())`); a command as typed (`/ask question: …`, `!ask …`), as the person's message
   */
  answer(ctx: MessageContext | CommandContext, messages?: ModelMessage[]): Promise<void>;
  /** Add to `createBot({ plugins })`: the listener of approval replies and the sweep of timeouts. */
  readonly plugin: Plugin;
  readonly approvals: AgentApprovals;
}

/**
 * Declares an assistant whose turns act through tools, with durable approvals: a turn waiting for a
 * person's approval holds nothing (its event is finished; its model input is in the session store),
 * and the approving reply resumes it on whichever replica handles it, before or after a restart.
 *
 * @param options - the model, tools, approvers and bounds
 * @example
 * const Assistant = defineAgent({ name: 'assistant', model, tools: (ctx) => ({ pin: pinTool(ctx) }) });
 * class Ask { @OnMessage(/@assistant/) answer(ctx: MessageContext) { return Assistant.answer(ctx); } }
 * createBot({ token, handlers: [Ask], plugins: [Assistant.plugin] });
 */
export function defineAgent(options: AgentOptions): AgentDefinition {
  const full: ResolvedAgentOptions = { ...DEFAULT_AGENT_OPTIONS, ...options };
  for (const bound of ['maxSteps', 'maxToolCalls', 'turnsPerMinute', 'approvalTimeoutMs'] as const) {
    if (!Number.isInteger(full[bound]) || full[bound] < 1) {
      throw new InvalidHandlerError(
        `defineAgent('${options.name}'): ${bound} is ${full[bound]}; give a whole number of at least 1`,
      );
    }
  }
  const agent = new AgentRuntime(full);
  const bound: { services?: Services } = {};
  const apiStore = () => {
    if (!bound.services)
      throw new InvalidHandlerError(`defineAgent('${full.name}'): add its plugin to createBot({ plugins }).`);
    return new ApprovalStore(bound.services.get(SESSION_STORE), full.name, () => Number.NEGATIVE_INFINITY);
  };

  class AgentApprovalReplies {
    @OnMessage()
    answer(ctx: MessageContext): Promise<void> {
      return decide(ctx, agent);
    }
  }
  class AgentApprovalSweep {
    // Denies what waited too long and shows the cancelled, on one replica per tick.
    @Every('1m')
    async sweep(ctx: ScheduleContext): Promise<void> {
      const store = agent.store(ctx);
      const now = ctx.session(botNow);
      for (const id of await store.ids()) {
        const timedOut = (r: ApprovalRecord) =>
          r.status === 'pending' && now > r.expiresAt
            ? { ...r, status: 'timeout' as const, decider: 'timeout' }
            : undefined;
        if (await store.update(id, timedOut)) agent.count('timeout');
        const record = await store.get(id);
        if (record === undefined) await store.unlist(id);
        else if (record.status !== 'pending' && !record.shown) await showDecision(ctx.rest, store, record, full);
      }
    }
  }
  for (const [cls, name] of [
    [AgentApprovalReplies, 'Replies'],
    [AgentApprovalSweep, 'Sweep'],
  ] as const) {
    Object.defineProperty(cls, 'name', { value: `Agent(${full.name}).Approval${name}` });
  }

  return {
    options: full,
    answer: async (ctx, messages) => {
      const asker = askerOf(ctx);
      if (!(await countTurn(ctx, asker, full))) {
        await ctx.reply(new AgentBoundError('turnsPerMinute', full.turnsPerMinute).message);
        return;
      }
      if (ctx.kind === 'message') {
        const input = messages ?? (toModelMessages(await ctx.thread()) as ModelMessage[]);
        await runTurn(ctx, ctx, agent, { messages: input, toolCalls: 0, asker });
      } else {
        const input = messages ?? [{ role: 'user', content: asker.message.content ?? '' }];
        await runTurn(ctx, askerContext(ctx, asker), agent, { messages: input, toolCalls: 0, asker });
      }
    },
    plugin: {
      name: `agent:${full.name}`,
      handlers: [AgentApprovalReplies as Class, AgentApprovalSweep as Class],
      kinds: [agent.metricsKind()],
      setup: (host) => {
        bound.services = host.services;
        registerAgent(host.services, agent);
      },
    },
    approvals: {
      async list() {
        const store = apiStore();
        const records = await Promise.all((await store.ids()).map((id) => store.get(id)));
        return records
          .filter((r): r is ApprovalRecord => r?.status === 'pending')
          .map(({ messages: _m, asker: _a, decidedBy: _d, decider: _w, shown: _s, ...pending }) => pending);
      },
      async cancel(id) {
        const cancelled = await apiStore().update(id, (r) =>
          r.status === 'pending' ? { ...r, status: 'cancelled', decider: 'cancel' } : undefined,
        );
        if (cancelled) agent.count('cancelled');
        return cancelled !== undefined;
      },
    },
  };
}

/**
 * Counts the asking message (or invocation) as a turn of its author, unless they started
 * `turnsPerMinute` in the last minute (a message handled again is counted once).
 */
async function countTurn(
  ctx: MessageContext | CommandContext,
  asker: TurnAsker,
  options: ResolvedAgentOptions,
): Promise<boolean> {
  const { message } = asker;
  const who = message.author;
  if (who === null) return true;
  const store = ctx.session(servicesOf).get(SESSION_STORE);
  const now = () => ctx.session(botNow);
  const key = `agent:${options.name}:turns:${who}`;
  type Turns = { id: string; at: number }[];
  let allowed = true;
  await changeValue<Turns>(
    store,
    key,
    (turns = []) => {
      const recent = turns.filter((t) => t.at > now() - 60_000);
      allowed = recent.some((t) => t.id === message.id) || recent.length < options.turnsPerMinute;
      return allowed ? [...recent.filter((t) => t.id !== message.id), { id: message.id, at: now() }] : undefined;
    },
    () => now() + 60_000,
    now,
  );
  return allowed;
}
