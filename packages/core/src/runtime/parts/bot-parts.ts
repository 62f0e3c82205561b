import { AppPart, CommandsPart, DispatchPart, SourcePart } from './feed-parts.js';
import {
  HealthPart,
  logPart,
  patternsPart,
  pluginsPart,
  providersPart,
  replicaPart,
  restPart,
  schedulesPart,
  sessionsPart,
  signalsPart,
} from './house-parts.js';
import type { BotPart } from './part.js';
import type { PartsHost } from './parts-host.js';

/** The bot's own parts the bot reads from: what its start read and did, and what its stop left. */
export interface CoreParts {
  app: AppPart;
  commands: CommandsPart;
  health: HealthPart;
  source: SourcePart;
  dispatch: DispatchPart;
}

/**
 * A bot's own parts, in the order they start: nothing to start in the log, the REST client and the
 * sessions (closed last); the providers (disposed of once nothing runs); the signal handlers from the first moment; the patterns' check; the health
 * endpoint; a replica's connection; the app; the commands; the dispatch (whose stop waits for the
 * handlers, after the source took no new event); the event source; the plugins and the schedules,
 * once the bot runs (stopped after the handlers finished). Closed in reverse.
 *
 * @param host - the bot
 */
export function botParts(host: PartsHost): { list: BotPart[]; core: CoreParts } {
  const adapter = host.built.scale;
  const health = new HealthPart(host);
  const app = new AppPart(host);
  const commands = new CommandsPart(host);
  const source = new SourcePart(host, app, health);
  const dispatch = new DispatchPart(host.built, host.options.shutdownTimeoutMs, () => source.abandon());
  const list: BotPart[] = [
    logPart(host),
    restPart(host),
    sessionsPart(host.plugins.services),
    providersPart(host),
    signalsPart(host),
    patternsPart(host),
    ...(host.options.health || host.hub ? [health] : []),
    ...(adapter ? [replicaPart(host, adapter)] : []),
    app,
    commands,
    dispatch,
    source,
    pluginsPart(host),
    schedulesPart(host),
  ];
  return { list, core: { app, commands, health, source, dispatch } };
}
