import { join } from 'node:path';
import type { Logger } from '@boardbot/protocol';
import type { RestClientOptions } from '@boardbot/rest';
import type { HealthHub } from '../health/health-hub.js';
import { Bot } from '../runtime/bot.js';
import type { BotDefinition } from '../runtime/define-bot.js';
import type { StopReport } from '../runtime/exit-codes.js';
import { NOTHING_LEFT } from '../runtime/parts/feed-parts.js';
import type { ScaleAdapter } from '../runtime/scale/scale-port.js';
import { resolveAppToken } from './app-token.js';
import type { HostedAppDefinition, HostOptions } from './host-options.js';

/**
 * Where a hosted app is: `failed` when it could not start or was refused for good while running;
 * `elsewhere` when the host has replicas (`scale`) and another replica runs it.
 */
export type HostedAppState = 'idle' | 'starting' | 'running' | 'failed' | 'stopping' | 'stopped' | 'elsewhere';

/** An app of a host, as `host.status()` and `/readyz` report it. */
export interface AppStatus {
  /** Its id in the host. */
  readonly id: string;
  /** Where it is in its life. */
  readonly state: HostedAppState;
  /** Why it failed (`failed` only): the error's stable code, when it has one, and message (never its token). */
  readonly error?: { readonly code?: string; readonly message: string };
}

/** What the host shares with each of its apps. */
export interface HostedAppDeps {
  /** The host's logger (the app logs through a child with its `app` field). */
  log: Logger;
  stateDir: string;
  defaults: NonNullable<HostOptions['defaults']>;
  tracing: HostOptions['tracing'];
  /** The host's HTTP pool. */
  dispatcher: RestClientOptions['dispatcher'];
  /** The host's health endpoint, as this app joins it (once the host listens). */
  hub(): HealthHub | undefined;
  /** A scale adapter for one start of the app, when the host has replicas (`scale`). */
  scale?: ((app: string) => ScaleAdapter) | undefined;
}

/**
 * One app of a host: its bot, made anew at each start (a bot runs once) with the token resolved
 * then, in its own folder of the state directory so that it resumes where it stopped. Its start,
 * stop and re-token run one after the other. A failure (no token, a definition that does not load,
 * a refused token at the start or later) is logged and reported, and ends this app alone.
 */
export class HostedApp {
  /** The app's logger: the host's, with its `app` field. */
  readonly log: Logger;
  private current: HostedAppState;
  private failure: AppStatus['error'];
  private running: Bot | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * @param definition - the app as it was added
   * @param deps - what the host shares
   * @internal made by the host (`host.add`)
   */
  constructor(
    /** The app as it was added. */
    readonly definition: HostedAppDefinition,
    private readonly deps: HostedAppDeps,
  ) {
    this.log = deps.log.child({ app: definition.id });
    // With replicas, an app runs here only once this replica takes it.
    this.current = deps.scale ? 'elsewhere' : 'idle';
  }

  /** Its id in the host. */
  get id(): string {
    return this.definition.id;
  }

  /** Its bot, while one is made (the last one, after a stop; none once another replica runs it). */
  get bot(): Bot | undefined {
    return this.running;
  }

  /** Where it is, and why it failed. */
  status(): AppStatus {
    return { id: this.id, state: this.current, ...(this.failure && { error: this.failure }) };
  }

  /** Starts it; resolves once it runs or failed (a failure is reported, not thrown). */
  start(): Promise<void> {
    return this.inTurn(() => this.open());
  }

  /** Stops it gracefully; resolves with what its stop left undone. */
  stop(): Promise<StopReport> {
    return this.inTurn(() => this.close());
  }

  /** Stops it gracefully here: another replica of the host runs it from now on. */
  release(): Promise<StopReport> {
    return this.inTurn(async () => {
      const report = await this.close();
      if (this.current === 'stopped') this.current = 'elsewhere';
      // A long-lived replica hands apps over again and again: it keeps no stopped bot of theirs.
      this.running = undefined;
      return report;
    });
  }

  /** Resolves its token again and starts it anew, from where it stopped (also after a failure). */
  retoken(): Promise<void> {
    return this.inTurn(async () => {
      await this.close();
      await this.open();
    });
  }

  private inTurn<T>(step: () => Promise<T>): Promise<T> {
    const next = this.queue.then(step);
    this.queue = next.catch(() => {});
    return next;
  }

  private async open(): Promise<void> {
    const { id } = this.definition;
    this.current = 'starting';
    this.failure = undefined;
    try {
      const definition = await loadDefinition(this.definition.bot);
      const token = await resolveAppToken(id, this.definition.token);
      const { defaults, stateDir, tracing, dispatcher, hub, scale } = this.deps;
      // Only this bot's refusal fails the app: a bot replaced by a re-token no longer speaks for it.
      const failed = (error: Error) => {
        if (this.running === bot) this.fail(error);
      };
      const bot: Bot = new Bot(
        definition,
        {
          ...defaults,
          ...this.definition.options,
          ...(tracing !== undefined && { tracing }),
          ...(scale && { scale: scale(id) }),
          token,
          logger: this.log,
          stateDir: join(stateDir, 'apps', id),
          handleSignals: false,
        },
        { dispatcher, health: hub(), failed },
      );
      this.running = bot;
      await bot.start();
      // A refusal may have come between the gateway opening and the start ending.
      if (this.current === 'starting') this.current = 'running';
    } catch (error) {
      this.fail(error);
    }
  }

  private async close(): Promise<StopReport> {
    const bot = this.running;
    if (this.current !== 'failed') this.current = 'stopping';
    const report = bot ? await bot.stop() : NOTHING_LEFT;
    if (this.current !== 'failed') this.current = 'stopped';
    return report;
  }

  private fail(error: unknown): void {
    this.current = 'failed';
    const code = (error as { code?: unknown }).code;
    this.failure = {
      ...(typeof code === 'string' && { code }),
      message: error instanceof Error ? error.message : String(error),
    };
    this.log.error({ err: error }, 'app failed: stopped alone, the other apps go on');
  }
}

/** The app's definition, loaded if it is given as a loader. */
async function loadDefinition(bot: HostedAppDefinition['bot']): Promise<BotDefinition> {
  return typeof bot === 'function' ? await bot() : bot;
}
