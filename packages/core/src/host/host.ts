import type { Logger } from '@boardbot/protocol';
import { createRestAgent } from '@boardbot/rest';
import { BotStateError, InvalidConfigError, UnknownAppError } from '../errors.js';
import { healthFromEnv } from '../health/health-env.js';
import { systemClock } from '../kernel/clock.js';
import { readEnvironment } from '../kernel/environment.js';
import { createLogger, flushLogger } from '../kernel/logger.js';
import { exitCodeAfterStop, type StopReport } from '../runtime/exit-codes.js';
import { handleShutdownSignals } from '../runtime/signals.js';
import { checkAppToken } from './app-token.js';
import type { HostHealth } from './host-health.js';
import { DEFAULT_HOST_OPTIONS, type HostedAppDefinition, type HostOptions } from './host-options.js';
import type { HostScale } from './host-scale.js';
import { type AppStatus, HostedApp } from './hosted-app.js';

/** Where a host is in its life. A stopped host cannot start again: create a new one. */
export type HostState = 'idle' | 'starting' | 'running' | 'stopping' | 'stopped';

const APP_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * One process running many apps, each its own bot (token, commands, event source, resume point,
 * rate-limit window, idempotency keys, concurrency and queue bounds) and sharing the HTTP pool, the
 * logger, the health endpoint and the process metrics. Apps are added, removed and re-tokened while
 * it runs; one that fails is reported and stopped alone. Make one with {@link createHost}.
 */
export class Host {
  /** The host's logger; each app logs through a child with its `app` field. */
  readonly log: Logger;
  private readonly apps = new Map<string, HostedApp>();
  private readonly dispatcher = createRestAgent();
  private readonly options: HostOptions & { stateDir: string; handleSignals: boolean };
  private health: HostHealth | undefined;
  private healthAddress: string | undefined;
  private current: HostState = 'idle';
  private disposeSignals: (() => void) | undefined;
  private stopping: Promise<StopReport> | undefined;

  /** @param options - see {@link HostOptions} */
  constructor(options: HostOptions = {}) {
    const env = readEnvironment();
    this.options = {
      ...DEFAULT_HOST_OPTIONS,
      stateDir: env.BOARDBOT_STATE_DIR ?? DEFAULT_HOST_OPTIONS.stateDir,
      health: healthFromEnv(env),
      ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
    };
    this.log = createLogger(this.options.logger);
  }

  /** Where the host is in its life. */
  get state(): HostState {
    return this.current;
  }

  /** Where `/healthz`, `/readyz` and `/metrics` answer (`http://host:port`), once started with `health`. */
  get healthUrl(): string | undefined {
    return this.healthAddress;
  }

  /** Every app, its state, and why it failed. */
  status(): AppStatus[] {
    return [...this.apps.values()].map((app) => app.status());
  }

  /**
   * One app, for what its bot offers (`idle()`, `app`, `parts`).
   * @param id - the app's id
   * @throws UnknownAppError
   */
  app(id: string): HostedApp {
    const app = this.apps.get(id);
    if (!app) throw new UnknownAppError(id, [...this.apps.keys()]);
    return app;
  }

  /**
   * Adds an app; in a running host it starts now. Resolves once it runs or failed (see `status()`).
   * @param definition - its id, bot, token source and options
   * @throws InvalidConfigError for an id that is taken or not a name, or a token written in the configuration
   * @throws BotStateError once the host is stopping
   */
  async add(definition: HostedAppDefinition): Promise<AppStatus> {
    const app = this.register(definition);
    // With replicas, the next heartbeat places it (here or on another replica).
    if (this.options.scale) return app.status();
    if (this.current === 'running' || this.current === 'starting') await app.start();
    return app.status();
  }

  /**
   * Stops an app gracefully and forgets it (its state folder stays, for when it is added again).
   * @param id - the app's id
   * @throws UnknownAppError
   */
  async remove(id: string): Promise<StopReport> {
    const app = this.app(id);
    this.apps.delete(id);
    return app.stop();
  }

  /**
   * Resolves an app's token again (its variable or resolver) and restarts the app with it, from its
   * resume point; the app's idempotency keys stay valid (the platform scopes them to the app, not to
   * a token). Also what brings a failed app back once its token is fixed. Before `start()`, nothing
   * to do: the start reads every token.
   * @param id - the app's id
   * @throws UnknownAppError
   */
  async retoken(id: string): Promise<AppStatus> {
    const app = this.app(id);
    // A host not started yet reads every token at its start.
    if (this.current === 'idle') return app.status();
    // Run by another replica: its token is read when a replica takes it.
    if (app.status().state === 'elsewhere') return app.status();
    await app.retoken();
    return app.status();
  }

  /**
   * Opens the health endpoint, then starts every app at once. Resolves once each runs or failed:
   * an app that fails does not fail the start.
   */
  async start(): Promise<void> {
    if (this.current !== 'idle') throw new BotStateError(`start() called while the host is ${this.current}`);
    this.current = 'starting';
    const { exit = (code: number) => process.exit(code), handleSignals, signals = process } = this.options;
    if (handleSignals) {
      const stop = () => this.stop().then(exitCodeAfterStop);
      this.disposeSignals = handleShutdownSignals(stop, { source: signals, exit, log: this.log });
    }
    if (this.options.health) await this.openHealth(this.options.health);
    const { scale } = this.options;
    if (scale) await this.place(scale);
    else await Promise.all([...this.apps.values()].map((app) => app.start()));
    this.current = 'running';
    this.log.info(
      { apps: this.apps.size, failed: this.status().filter((a) => a.state === 'failed').length },
      'host started',
    );
  }

  /** Stops every app gracefully at once, then the health endpoint and the HTTP pool; safe to call twice. */
  stop(): Promise<StopReport> {
    this.stopping ??= this.shutDown();
    return this.stopping;
  }

  /**
   * Takes an app in, checked, not started.
   * @internal `createHost` adds its first apps with it, before anything runs
   */
  register(definition: HostedAppDefinition): HostedApp {
    if (this.current === 'stopping' || this.current === 'stopped') {
      throw new BotStateError(`host.add() called while the host is ${this.current}`);
    }
    const { id } = definition;
    if (typeof id !== 'string' || !APP_ID.test(id)) {
      throw new InvalidConfigError(
        'An app id is 1 to 64 letters, digits, - or _ (it names the app in logs, metrics and its state folder).',
      );
    }
    if (this.apps.has(id)) {
      throw new InvalidConfigError(`The host already runs an app ${JSON.stringify(id)}: give each app its own id.`);
    }
    checkAppToken(id, definition.token);
    const { stateDir, defaults = {}, tracing } = this.options;
    const { log, dispatcher } = this;
    const hub = () => this.health?.hub(id);
    const { scale } = this.options;
    const adapter = scale && ((app: string) => scale.adapter(app));
    const app = new HostedApp(definition, { log, stateDir, defaults, tracing, dispatcher, hub, scale: adapter });
    this.apps.set(id, app);
    return app;
  }

  /** Joins the host's replicas: from now on the apps this replica takes run here. */
  private async place(scale: HostScale): Promise<void> {
    await scale.connect({ log: this.log, clock: systemClock });
    this.log.info({ scale: scale.description }, 'running as a replica of the host');
    await scale.start({
      apps: () => [...this.apps.keys()],
      run: async (id) => {
        await this.apps.get(id)?.start();
      },
      release: async (id) => {
        await this.apps.get(id)?.release();
      },
    });
  }

  private async openHealth(options: NonNullable<HostOptions['health']>): Promise<void> {
    const { HostHealth } = await import('./host-health.js');
    this.health = new HostHealth(options, () => this.status(), this.log);
    this.healthAddress = await this.health.listen();
  }

  private async shutDown(): Promise<StopReport> {
    this.current = 'stopping';
    const reports = await Promise.all([...this.apps.values()].map((app) => app.stop()));
    // The apps stopped: their leases are given up, so other replicas take them at once.
    await this.options.scale?.close();
    await this.health?.close();
    await this.dispatcher.close();
    this.disposeSignals?.();
    this.current = 'stopped';
    this.log.info('host stopped');
    await flushLogger(this.log);
    return {
      abandoned: reports.flatMap((r) => r.abandoned),
      unhandled: reports.reduce((sum, r) => sum + r.unhandled, 0),
    };
  }
}

/**
 * Creates a host of apps: one process running many apps, each with its own token. `start()` then
 * starts them; `add`, `remove` and `retoken` change them while it runs. See docs/hosting.md.
 *
 * @param options - the state directory, logger, health endpoint and the apps' defaults
 * @param apps - the apps it starts with
 * @example
 * const host = createHost({ health: { port: 9464 } }, [
 *   { id: 'team-a', bot: teamA, token: { env: 'TEAM_A_TOKEN' } },
 *   { id: 'team-b', bot: teamB, token: (id) => tokens.lookup(id) },
 * ]);
 * await host.start();
 */
export function createHost(options: HostOptions = {}, apps: readonly HostedAppDefinition[] = []): Host {
  const host = new Host(options);
  for (const app of apps) host.register(app);
  return host;
}
