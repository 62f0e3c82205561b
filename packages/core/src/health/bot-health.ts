import type { Logger } from '@boardbot/protocol';
import type { Clock } from '../kernel/clock.js';
import type { BotGateway, BotRest } from '../kernel/ports.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { BotMetrics, type MetricsSources } from './bot-metrics.js';
import type { HealthHub, ReadyState } from './health-hub.js';
import { DEFAULT_HEALTH_OPTIONS, type HealthOptions } from './health-options.js';
import { listenHealth } from './health-server.js';
import { Readiness } from './readiness.js';
import type { ReplicaStatusSource } from './replica-status.js';

/** What the health endpoint reads from the bot. */
export interface HealthDeps extends Pick<MetricsSources, 'pending' | 'inFlight'> {
  options: HealthOptions;
  /** The readiness checks of the bot's parts, by name (`gateway`, `commands`, `running`...). */
  checks(): Promise<Record<string, boolean>>;
  telemetry: Telemetry;
  rest: BotRest;
  clock: Clock;
  log: Logger;
  /** The endpoint the bot joins instead of listening on a port of its own (a host of apps). @defaultValue none */
  hub?: HealthHub | undefined;
}

/**
 * A bot's health endpoint, its readiness and its metrics, started together by `bot.start()` when
 * the bot has `health` options. This module (and prom-client with it) is imported only then.
 */
export class BotHealth {
  /** Whether the gateway feed is up (the `gateway` check). */
  readonly readiness: Readiness;
  private readonly metrics: BotMetrics;
  private resumePoint: () => string | undefined = () => undefined;
  private replicas: ReplicaStatusSource | undefined;
  private closeServer: (() => Promise<void>) | undefined;
  private address = '';
  private leave: (() => void) | undefined;

  /** @param deps - the bot's parts the endpoint reads */
  constructor(private readonly deps: HealthDeps) {
    this.readiness = new Readiness(
      deps.clock,
      deps.options.reconnectGraceMs ?? DEFAULT_HEALTH_OPTIONS.reconnectGraceMs,
    );
    this.metrics = new BotMetrics(
      {
        pending: deps.pending,
        inFlight: deps.inFlight,
        ready: async () => (await this.state()).ready,
        replica: async () => this.replicas?.(),
      },
      () => this.resumePoint(),
      deps.hub === undefined,
    );
    this.metrics.watchRest(deps.rest);
    deps.telemetry.metrics = this.metrics;
  }

  /** Where the endpoint listens (`http://host:port`), once started. */
  get url(): string {
    return this.address;
  }

  /** Starts listening, or joins the hub's endpoint. */
  async listen(): Promise<void> {
    const { hub } = this.deps;
    if (hub) {
      this.leave = hub.join({ ready: () => this.state(), registry: this.metrics.registry });
      return;
    }
    const { url, close } = await listenHealth(
      {
        ready: () => this.state(),
        metrics: async () => ({ text: await this.metrics.render(), contentType: this.metrics.registry.contentType }),
      },
      this.deps.options,
      this.deps.log,
      'health endpoint listening: /healthz, /readyz, /metrics',
    );
    this.closeServer = close;
    this.address = url;
  }

  /**
   * Follows the gateway (connected, reconnecting, gaps) and the resume point.
   * @param gateway - the bot's gateway client
   * @param resumePoint - reads the event id the bot would resume after
   */
  watch(gateway: BotGateway, resumePoint: () => string | undefined): void {
    this.resumePoint = resumePoint;
    gateway.on('dispatch', (event) => {
      if (event.unknown || event.name !== 'ready') return;
      this.readiness.gatewayConnected();
      if (event.data.gap === true) this.metrics.gatewayGap();
    });
    gateway.on('reconnecting', () => {
      this.readiness.gatewayReconnecting();
      this.metrics.gatewayReconnecting();
    });
  }

  /** @param source - see `Bot.reportReplicas` */
  reportReplicas(source: ReplicaStatusSource | undefined): void {
    this.replicas = source;
  }

  /** Whether the gateway feed is up: see {@link Readiness}. */
  async gatewayReady(): Promise<boolean> {
    return this.readiness.gateway(await this.replicas?.());
  }

  /** Stops listening (after the bot stopped). */
  async close(): Promise<void> {
    this.leave?.();
    this.leave = undefined;
    const close = this.closeServer;
    this.closeServer = undefined;
    this.deps.telemetry.metrics = undefined;
    await close?.();
  }

  private async state(): Promise<ReadyState> {
    const checks = await this.deps.checks();
    return { ready: Object.values(checks).every(Boolean), checks };
  }
}
