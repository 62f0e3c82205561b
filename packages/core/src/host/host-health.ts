import type { Logger } from '@boardbot/protocol';
import { AggregatorRegistry, Gauge, Registry } from 'prom-client';
import { collectProcessMetrics } from '../health/bot-metrics.js';
import type { HealthHub, JoinedHealth, ReadyState } from '../health/health-hub.js';
import type { HealthOptions } from '../health/health-options.js';
import { listenHealth } from '../health/health-server.js';
import type { AppStatus, HostedAppState } from './hosted-app.js';

/** What `/readyz` of a host says: overall (each app's readiness and state), or of one app. */
export interface HostReadyState extends ReadyState {
  /** Overall: each app's state, and why it failed. */
  apps?: Record<string, Omit<AppStatus, 'id'>>;
  /** Of one app: its state. */
  state?: HostedAppState;
  /** Of one app that failed: why. */
  error?: AppStatus['error'];
}

const STATES: readonly HostedAppState[] = ['idle', 'starting', 'running', 'failed', 'stopping', 'stopped', 'elsewhere'];

/**
 * A host's one health endpoint: `/healthz`; `/readyz`, ready when every app is, each app's readiness
 * and state in its body, and one app's at `/readyz?app=<id>`; `/metrics`, the process's metrics once
 * and each app's own with its `app` label (bounded: one value per app of the host). Loaded (and
 * prom-client with it) only by a host with `health` options.
 */
export class HostHealth {
  private readonly registry = new Registry();
  private readonly joined = new Map<string, JoinedHealth>();
  private closeServer: (() => Promise<void>) | undefined;

  /**
   * @param options - where it listens
   * @param apps - the host's apps, now
   * @param log - hears a request it failed to answer
   */
  constructor(
    private readonly options: HealthOptions,
    private readonly apps: () => readonly AppStatus[],
    private readonly log: Logger,
  ) {
    collectProcessMetrics(this.registry);
    new Gauge({
      name: 'boardbot_host_apps',
      help: 'Apps of the host, by state (idle, starting, running, failed, stopping, stopped, elsewhere).',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const all = apps();
        for (const state of STATES) this.set({ state }, all.filter((a) => a.state === state).length);
      },
    });
  }

  /**
   * The endpoint as one app's bot joins it: its metrics get the app's label.
   * @param app - the app's id
   */
  hub(app: string): HealthHub {
    return {
      options: this.options,
      join: (health) => {
        health.registry.setDefaultLabels({ app });
        this.joined.set(app, health);
        return () => {
          if (this.joined.get(app) === health) this.joined.delete(app);
        };
      },
    };
  }

  /** Starts listening; resolves with its URL. */
  async listen(): Promise<string> {
    const { url, close } = await listenHealth(
      {
        ready: (app) => this.ready(app),
        metrics: async () => ({ text: await this.metrics(), contentType: this.registry.contentType }),
      },
      this.options,
      this.log,
      'health endpoint listening: /healthz, /readyz (?app=<id>), /metrics',
    );
    this.closeServer = close;
    return url;
  }

  /**
   * Readiness of every app, or of one.
   * @param app - the app's id; undefined: every app
   * @returns undefined when the host runs no such app
   */
  async ready(app?: string): Promise<HostReadyState | undefined> {
    const all = this.apps();
    if (app !== undefined) {
      const status = all.find((a) => a.id === app);
      return status && { ...(await this.appReady(status)), state: status.state, error: status.error };
    }
    const states = await Promise.all(all.map(async (a) => [a, await this.appReady(a)] as const));
    return {
      ready: states.every(([, s]) => s.ready),
      checks: Object.fromEntries(states.map(([a, s]) => [a.id, s.ready])),
      apps: Object.fromEntries(all.map(({ id, ...rest }) => [id, rest])),
    };
  }

  /** Stops listening. */
  async close(): Promise<void> {
    const close = this.closeServer;
    this.closeServer = undefined;
    await close?.();
  }

  private async appReady(status: AppStatus): Promise<ReadyState> {
    const joined = this.joined.get(status.id);
    // Another replica of the host runs it: nothing of it is this replica's to be ready for.
    if (status.state === 'elsewhere') return { ready: true, checks: { elsewhere: true } };
    if (status.state !== 'running' || !joined) return { ready: false, checks: { running: false } };
    return joined.ready();
  }

  private async metrics(): Promise<string> {
    const own = await this.registry.getMetricsAsJSON();
    const apps = await Promise.all([...this.joined.values()].map((j) => j.registry.getMetricsAsJSON()));
    return AggregatorRegistry.aggregate([own, ...apps]).metrics();
  }
}
