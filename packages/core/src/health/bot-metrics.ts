import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { BotRest } from '../kernel/ports.js';
import type { AgentCount, BurstCount, HandlerKind, HandlerOutcome, MetricsSink } from '../telemetry/metrics-sink.js';
import { PositionLag } from './position-lag.js';
import type { ReplicaStatus } from './replica-status.js';

/** What the metrics read when scraped. */
export interface MetricsSources {
  /** Events queued or being handled. */
  pending(): number;
  /** Handler runs holding a worker. */
  inFlight(): number;
  /** Whether `/readyz` would say ready. */
  ready(): Promise<boolean>;
  /** The replica's status, when the bot runs as one. */
  replica(): Promise<ReplicaStatus | undefined>;
}

/**
 * Adds the process's metrics (prom-client's defaults: CPU, memory, event loop, GC) to a registry,
 * once per process: a bot's own registry, or a host of apps' registry.
 * @param registry - the registry `/metrics` renders
 */
export function collectProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  // prom-client's defaults include gauges named `*_total` (active handles, requests, resources),
  // which Prometheus's conventions reserve for counters (promtool flags them): left out.
  for (const { name, type } of registry.getMetricsAsArray()) {
    // The typings say an enum; the objects hold the type's name.
    if (name.endsWith('_total') && String(type) !== 'counter') registry.removeSingleMetric(name);
  }
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The bot's Prometheus metrics, on prom-client (the registry most Node services already expose, no
 * SDK to configure). Labels are bounded: event names, handler names, route templates, statuses,
 * reasons; never a user, message or board id. Loaded only when the bot has a `health` endpoint.
 */
export class BotMetrics implements MetricsSink {
  /** The registry `/metrics` renders (the bot's metrics and the process's). */
  readonly registry = new Registry();
  private readonly lag = new PositionLag();
  private readonly events: Counter<'event'>;
  private readonly handlers: Histogram<'handler' | 'kind' | 'outcome'>;
  private readonly backfills: Counter;
  private readonly reconnects: Counter;
  private readonly gaps: Counter;
  private readonly pauses: Counter;
  private readonly paused: Gauge;
  private readonly setAside: Counter;
  private readonly bursts: Record<BurstCount, Counter<'handler'>>;
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly requestSeconds: Histogram<'method' | 'route'>;
  private readonly waits: Counter<'bucket' | 'reason'>;
  private readonly waitSeconds: Counter<'bucket'>;
  private readonly retries: Counter<'method' | 'route' | 'reason'>;
  private readonly broadcasts: Counter<'outcome'>;
  private readonly approvalRequests: Counter<'agent'>;
  private readonly approvalDecisions: Counter<'agent' | 'decision'>;

  /**
   * @param sources - what is read at scrape time
   * @param resumePoint - the event id the bot would resume after, now
   * @param processMetrics - whether the registry has the process's metrics (CPU, memory, event loop)
   */
  constructor(
    sources: MetricsSources,
    private readonly resumePoint: () => string | undefined,
    processMetrics = true,
  ) {
    const registers = [this.registry];
    // A host of apps has the process's metrics once, in its own registry.
    if (processMetrics) collectProcessMetrics(this.registry);
    const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
      new Counter<L>({ name, help, labelNames, registers });
    const gauge = (name: string, help: string, collect: (g: Gauge) => void | Promise<void>) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          await collect(this);
        },
      });
    this.events = counter('boardbot_events_received_total', 'Gateway events received, by name.', ['event']);
    this.handlers = new Histogram({
      name: 'boardbot_handler_duration_seconds',
      help: 'Handler runs: how long each ran, by handler (Class.method), kind and outcome.',
      labelNames: ['handler', 'kind', 'outcome'],
      buckets: SECONDS,
      registers,
    });
    this.backfills = counter('boardbot_backfilled_messages_total', 'Messages read back over REST after a gap.');
    this.reconnects = counter('boardbot_gateway_reconnects_total', 'Times the gateway stream dropped and reconnected.');
    this.gaps = counter('boardbot_gateway_gaps_total', 'Reconnects that found a gap (events older than retained).');
    this.pauses = counter(
      'boardbot_intake_pauses_total',
      'Times the intake reached maxPendingEvents and paused the gateway.',
    );
    this.paused = new Gauge({
      name: 'boardbot_intake_paused',
      help: 'Whether the gateway is paused by the intake bound (1) or reading (0).',
      registers,
    });
    this.setAside = counter(
      'boardbot_intake_set_aside_total',
      'New messages set aside while their board held its share of the intake, read back later.',
    );
    this.bursts = {
      held: counter('boardbot_bursts_held_total', 'Bursts a listener held (burst policies), by handler.', ['handler']),
      skipped: counter(
        'boardbot_burst_messages_skipped_total',
        'Messages a burst policy did not run alone (in ctx.skipped, or dropped), by handler.',
        ['handler'],
      ),
      cancelled: counter(
        'boardbot_burst_runs_cancelled_total',
        "Runs cancelled by a newer message (burst 'latest'), by handler.",
        ['handler'],
      ),
      released: counter(
        'boardbot_burst_messages_released_total',
        "Messages past a burst's cap (burst.max), released unread (also counted as skipped), by handler.",
        ['handler'],
      ),
    };
    this.requests = counter('boardbot_rest_requests_total', 'REST answers, by method, route template and status.', [
      'method',
      'route',
      'status',
    ]);
    this.requestSeconds = new Histogram({
      name: 'boardbot_rest_request_duration_seconds',
      help: 'Time from sending a REST attempt to its answer, by method and route template.',
      labelNames: ['method', 'route'],
      buckets: SECONDS,
      registers,
    });
    this.waits = counter('boardbot_rest_rate_limit_waits_total', 'Times a REST queue waited for the rate limit.', [
      'bucket',
      'reason',
    ]);
    this.waitSeconds = counter('boardbot_rest_rate_limit_wait_seconds_total', 'Time REST queues waited.', ['bucket']);
    this.retries = counter('boardbot_rest_retries_total', 'REST attempts that failed and were retried.', [
      'method',
      'route',
      'reason',
    ]);
    this.broadcasts = counter(
      'boardbot_broadcast_messages_total',
      'Boards handled by broadcasts (bot.broadcast), by outcome: sent, or failed (refused for good).',
      ['outcome'],
    );
    this.approvalRequests = counter('boardbot_agent_approval_requests_total', 'Approval requests, by agent.', [
      'agent',
    ]);
    this.approvalDecisions = counter(
      'boardbot_agent_approval_decisions_total',
      'Approval answers, by agent and decision: approved, denied, timeout, cancelled, ignored (not an approver).',
      ['agent', 'decision'],
    );
    gauge('boardbot_events_pending', 'Events queued or being handled.', (g) => g.set(sources.pending()));
    gauge('boardbot_handlers_in_flight', 'Handler runs holding a worker.', (g) => g.set(sources.inFlight()));
    gauge('boardbot_ready', 'Whether /readyz says ready (1) or not (0).', async (g) =>
      g.set((await sources.ready()) ? 1 : 0),
    );
    gauge('boardbot_position_lag_events', 'Newest received event id minus the resume point.', (g) =>
      g.set(this.lag.events(this.resumePoint())),
    );
    gauge('boardbot_position_lag_seconds', 'Age of the oldest received event the resume point has not passed.', (g) =>
      g.set(this.lag.seconds(this.resumePoint(), Date.now())),
    );
    gauge('boardbot_replica_pending_events', 'Replicas: events delivered to the group, not acknowledged.', async (g) =>
      g.set((await sources.replica())?.pending ?? 0),
    );
    gauge('boardbot_replica_dead_lettered_events', 'Replicas: events moved to the dead-letter stream.', async (g) =>
      g.set((await sources.replica())?.deadLettered ?? 0),
    );
  }

  /** @inheritdoc */
  eventReceived(name: string, id: string | undefined): void {
    this.events.inc({ event: name });
    if (id !== undefined) this.lag.received(id, Date.now(), this.resumePoint());
  }

  /** @inheritdoc */
  handlerEnded(handler: string, kind: HandlerKind, outcome: HandlerOutcome, seconds: number): void {
    this.handlers.observe({ handler, kind, outcome }, seconds);
  }

  /** @inheritdoc */
  backfilled(messages: number): void {
    this.backfills.inc(messages);
  }

  /** @inheritdoc */
  intakeBackpressure(paused: boolean): void {
    if (paused) this.pauses.inc();
    this.paused.set(paused ? 1 : 0);
  }

  /** @inheritdoc */
  intakeSetAside(count: number): void {
    this.setAside.inc(count);
  }

  /** @inheritdoc */
  burst(handler: string, what: BurstCount, count: number): void {
    this.bursts[what].inc({ handler }, count);
  }

  /** @inheritdoc */
  broadcast(outcome: 'sent' | 'failed', count: number): void {
    this.broadcasts.inc({ outcome }, count);
  }

  /** @inheritdoc */
  agentApproval(agent: string, what: AgentCount): void {
    if (what === 'requested') this.approvalRequests.inc({ agent });
    else this.approvalDecisions.inc({ agent, decision: what });
  }

  /** The gateway reconnected; `gap` when it reported missed events. */
  gatewayReconnecting(): void {
    this.reconnects.inc();
  }

  /** The gateway reported a gap. */
  gatewayGap(): void {
    this.gaps.inc();
  }

  /**
   * Counts the REST client's answers, retries and rate-limit waits.
   * @param rest - the bot's REST client
   */
  watchRest(rest: BotRest): void {
    rest.on('response', (e) => {
      this.requests.inc({ method: e.method, route: e.route, status: String(e.status) });
      this.requestSeconds.observe({ method: e.method, route: e.route }, e.durationMs / 1000);
    });
    rest.on('retry', (e) => this.retries.inc({ method: e.method, route: e.route, reason: e.reason }));
    rest.on('rateLimited', (e) => {
      this.waits.inc({ bucket: e.bucket, reason: e.reason });
      this.waitSeconds.inc({ bucket: e.bucket }, e.waitMs / 1000);
    });
  }

  /** The text `/metrics` serves. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}
