import { rateLimitWindowId } from '@boardbot/rest';
import type { BotHealth } from '../../health/bot-health.js';
import { flushLogger } from '../../kernel/logger.js';
import type { Services } from '../../kernel/services.js';
import { checkPatterns } from '../../listeners/patterns/check-patterns.js';
import { SESSION_STORE } from '../../sessions/service.js';
import { exitCodeAfterStop } from '../exit-codes.js';
import type { ScaleAdapter } from '../scale/scale-port.js';
import { handleShutdownSignals } from '../signals.js';
import type { BotPart } from './part.js';
import type { PartsHost } from './parts-host.js';

/** The log: the last line of a graceful stop, then everything written is flushed. */
export function logPart(host: PartsHost): BotPart {
  const { log } = host.built;
  return {
    name: 'log',
    close: async () => {
      if (host.stopping()) log.info('bot stopped');
      await flushLogger(log);
    },
  };
}

/** The REST client, closed last but the log, unless the caller gave it (it stays theirs). */
export function restPart(host: PartsHost): BotPart {
  return { name: 'rest', close: () => (host.options.rest ? undefined : host.built.rest.close().catch(() => {})) };
}

/** The session store, closed once nothing runs that could write a session. */
export function sessionsPart(services: Services): BotPart {
  return {
    name: 'sessions',
    close: () =>
      services
        .find(SESSION_STORE)
        ?.close?.()
        .catch(() => {}),
  };
}

/**
 * The providers the container built: disposed of (`dispose()` or `[Symbol.asyncDispose]()`, last
 * built first) once no handler runs, so an open database closes at every stop (each reload of
 * `boardbot dev` too). One that fails is logged and the others still run.
 */
export function providersPart(host: PartsHost): BotPart {
  const { container, log } = host.built;
  return {
    name: 'providers',
    close: () => container.dispose((err, provider) => log.error({ err, provider }, 'provider failed to dispose')),
  };
}

/**
 * SIGINT and SIGTERM, handled from the first moment: the bot may answer events before it counts as
 * started (while it stores its first resume point), so a signal then must stop it gracefully too,
 * once the start has ended, rather than kill the process.
 */
export function signalsPart(host: PartsHost): BotPart {
  let dispose: (() => void) | undefined;
  return {
    name: 'signals',
    start: () => {
      if (!host.options.handleSignals) return;
      const stop = async () => {
        await host.startEnded();
        return exitCodeAfterStop(await host.stop());
      };
      const source = host.options.signals ?? process;
      dispose = handleShutdownSignals(stop, { source, exit: (code) => host.exit(code), log: host.built.log });
    },
    close: () => {
      dispose?.();
      dispose = undefined;
    },
  };
}

/** The listeners' regular expressions, checked for catastrophic backtracking before any message is read. */
export function patternsPart(host: PartsHost): BotPart {
  return {
    name: 'patterns',
    start: () => checkPatterns(host.built.patterns, { stateDir: host.options.stateDir, log: host.start().log }),
  };
}

/**
 * The health endpoint (`/healthz`, `/readyz`, `/metrics`), when the bot has `health` options (or
 * joins its host's endpoint, in a host of apps). Its
 * module (and prom-client) is loaded only at its start, so a bot without `health` never pays for it.
 */
export class HealthPart implements BotPart {
  readonly name = 'health';
  /** The endpoint, while it is open. */
  health: BotHealth | undefined;

  /** @param host - the bot */
  constructor(private readonly host: PartsHost) {}

  async start(): Promise<void> {
    const { options, built, hub } = this.host;
    const healthOptions = options.health ?? hub?.options;
    if (!healthOptions) return;
    const { BotHealth } = await import('../../health/bot-health.js');
    const health = new BotHealth({
      options: healthOptions,
      hub,
      ...built,
      pending: () => built.queue.size,
      inFlight: () => built.dispatcher.runner.inFlight,
      checks: () => this.host.checks(),
    });
    await health.listen();
    health.reportReplicas(this.host.replicas());
    this.health = health;
  }

  async close(): Promise<void> {
    await this.health?.close();
    this.health = undefined;
  }
}

/**
 * A replica's connection to the others (`scale`): made before the bot's first request, so that even
 * that one reserves a slot of the shared rate limit (named by a hash of the API URL and the token,
 * never the token itself); left last, handing what did not finish to the other replicas.
 */
export function replicaPart(host: PartsHost, adapter: ScaleAdapter): BotPart {
  const { options, built } = host;
  return {
    name: 'replica',
    start: () =>
      adapter.connect({
        apiUrl: options.apiUrl,
        credential: rateLimitWindowId(options.apiUrl, options.token),
        log: built.log,
        clock: built.clock,
      }),
    close: () =>
      adapter.close().catch((error: unknown) => built.log.warn({ err: error }, 'the replica did not leave cleanly')),
  };
}

/**
 * The plugins: started once the bot runs (connected and dispatching), each after the one before;
 * stopped after the handlers finished. One whose `onStop` fails is logged and the others still stop.
 */
export function pluginsPart(host: PartsHost): BotPart {
  const { plugins, log } = host.built;
  return {
    name: 'plugins',
    start: async () => {
      host.running();
      for (const plugin of plugins) await plugin.onStart?.(host.plugins);
    },
    close: async () => {
      for (const plugin of plugins) {
        await Promise.resolve(plugin.onStop?.(host.plugins)).catch((err: unknown) =>
          log.error({ err, plugin: plugin.name }, 'plugin onStop failed'),
        );
      }
    },
  };
}

/** The `@Every` and `@Cron` methods' timers, armed once the bot runs and cleared at its stop. */
export function schedulesPart(host: PartsHost): BotPart {
  const { scheduler } = host.built;
  return { name: 'schedules', start: () => scheduler.onStart(), close: () => scheduler.onStop() };
}
