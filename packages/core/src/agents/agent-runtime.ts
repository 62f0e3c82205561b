import { metrics } from '@opentelemetry/api';
import type { BaseContext } from '../kernel/context.js';
import type { Scoped } from '../kernel/scoped.js';
import { ServiceKey, type Services } from '../kernel/services.js';
import type { KindDefinition } from '../policies/kind.js';
import { SESSION_STORE } from '../sessions/service.js';
import type { AgentCount, MetricsSink } from '../telemetry/metrics-sink.js';
import type { ResolvedAgentOptions } from './agent-options.js';
import { ApprovalStore } from './approval-store.js';
import { TurnWrites } from './turn-writes.js';

// The OpenTelemetry API's meter: counts nothing until the app registers a meter provider.
const meter = metrics.getMeter('@boardbot/core/agents');
/**
 * Approval requests and decisions, by agent and decision (`requested`, `approved`, `denied`,
 * `timeout`, `cancelled`, `ignored`).
 */
export const approvalCounter = meter.createCounter('boardbot_agent_approvals', {
  description: 'Approval requests and decisions of agents, by agent and decision',
});

/** The bot's clock, read through a context (as every feature reads it). */
export const botNow: Scoped<number> = { open: (scope) => scope.now() };
/** The bot's services, read through a context. */
export const servicesOf: Scoped<Services> = { open: (scope) => scope.services };
const DAY_MS = 24 * 3_600_000;

/**
 * One agent as its turns, approvals and commands see it in a bot: its options, its approvals in the
 * bot's session store, and its counts.
 */
export class AgentRuntime {
  /** The bot's metrics, once its health module is loaded (set when the bot builds its kinds). */
  metrics: () => MetricsSink | undefined = () => undefined;

  /** @param options - the agent's options, with their defaults */
  constructor(readonly options: ResolvedAgentOptions) {}

  /**
   * The agent's approvals, on the bot's clock.
   * @param ctx - a run's context
   */
  store(ctx: Pick<BaseContext, 'session'>): ApprovalStore {
    const services = ctx.session(servicesOf);
    return new ApprovalStore(services.get(SESSION_STORE), this.options.name, () => ctx.session(botNow));
  }

  /**
   * The record of a turn's tool calls, kept while its approval may still be answered and a day more
   * (the platform's idempotency window), from each call.
   * @param ctx - a run's context
   * @param turnId - the turn's id: the asking message's
   */
  writes(ctx: Pick<BaseContext, 'session'>, turnId: string): TurnWrites {
    const services = ctx.session(servicesOf);
    const keepMs = this.options.approvalTimeoutMs + DAY_MS;
    return new TurnWrites(services.get(SESSION_STORE), this.options.name, turnId, keepMs, () => ctx.session(botNow));
  }

  /**
   * Counts a request or a decision: in the OpenTelemetry counter, and on `/metrics` once the bot has
   * a health endpoint (`boardbot_agent_approval_requests_total`, `boardbot_agent_approval_decisions_total`).
   * @param what - `requested`, or the decision
   */
  count(what: AgentCount): void {
    approvalCounter.add(1, { agent: this.options.name, decision: what });
    this.metrics()?.agentApproval?.(this.options.name, what);
  }

  /** A kind that handles no event: it hands the agent the bot's metrics. */
  metricsKind(): KindDefinition {
    return {
      name: `agent ${this.options.name}: metrics`,
      decorators: [],
      describe: () => [],
      create: (host) => {
        this.metrics = host.metrics;
        return { route: () => undefined, handle: async () => {} };
      },
    };
  }
}

/** The agents of a bot, by name, for the approval commands (`/approve`, `/deny`). */
export const AGENTS = new ServiceKey<Map<string, AgentRuntime>>('agents (approvals)');

/**
 * Adds an agent to its bot's, once its plugin is set up.
 * @param services - the bot's services
 * @param agent - the agent
 */
export function registerAgent(services: Services, agent: AgentRuntime): void {
  const known = services.find(AGENTS) ?? new Map<string, AgentRuntime>();
  services.set(AGENTS, known);
  known.set(agent.options.name, agent);
}

/**
 * The bot's agents, from a run's context.
 * @param ctx - a run's context
 */
export function agentsOf(ctx: Pick<BaseContext, 'session'>): AgentRuntime[] {
  return [...(ctx.session(servicesOf).find(AGENTS)?.values() ?? [])];
}
