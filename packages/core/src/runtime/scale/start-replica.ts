import type { App, CommandDefinition, Logger } from '@boardbot/protocol';
import { commandSetHash } from '../../commands/sync/command-set-hash.js';
import type { CommandSyncPlan } from '../../commands/sync/plan.js';
import { type CommandSyncMode, syncCommands } from '../../commands/sync/sync.js';
import type { Dispatcher } from '../../dispatch/dispatcher.js';
import type { KeyedQueue } from '../../dispatch/keyed-queue.js';
import { type OrderBy, orderingKey } from '../../dispatch/ordering.js';
import type { BotGateway, BotRest, GatewayFailure, RequestOptions } from '../../kernel/ports.js';
import type { Telemetry } from '../../telemetry/telemetry.js';
import { Intake } from '../intake/intake.js';
import { dispatchTraced } from '../intake/traced-dispatch.js';
import type { ScaleAdapter, ScaleHost } from './scale-port.js';

/** What a replica starts from: the bot's parts and options. */
export interface ReplicaStart {
  adapter: ScaleAdapter;
  app: App;
  apiUrl: string;
  commands: CommandDefinition[];
  commandSync: CommandSyncMode;
  queue: KeyedQueue;
  dispatcher: Dispatcher;
  /** Traces each event a replica handles, as one process does. */
  telemetry: Telemetry;
  rest: BotRest;
  orderBy: OrderBy;
  backfillLimit: number;
  startedAt: number;
  /** The bot's root logger. */
  log: Logger;
  /** The start's own logger and request options (its correlation id). */
  startLog: Logger;
  requestOptions: RequestOptions;
  openGateway(lastEventId: string | undefined): BotGateway;
  gatewayFailed(error: GatewayFailure): void;
}

/**
 * Starts the bot as one replica of many (its adapter connected, its app read): names the app's
 * shared state, syncs the commands once across the replicas (in `sync` mode; `check` and `off`
 * behave as for one process), then joins, handing the adapter a {@link ScaleHost} onto this bot's
 * queue and dispatcher.
 *
 * @param s - the adapter and the bot's parts
 * @returns the sync plan, when this replica ran the sync
 */
export async function startReplica(s: ReplicaStart): Promise<CommandSyncPlan | undefined> {
  const { adapter, startLog } = s;
  await adapter.joinApp(s.app.id);
  startLog.info({ scale: adapter.description }, 'running as a replica');
  const sync = () => syncCommands(s.rest, [...s.commands], s.commandSync, startLog, s.requestOptions);
  const plan = s.commandSync === 'sync' ? await adapter.syncCommands(commandSetHash(s.commands), sync) : await sync();
  const host: ScaleHost = {
    appId: s.app.id,
    apiUrl: s.apiUrl,
    log: s.log,
    orderBy: s.orderBy,
    startedAt: s.startedAt,
    openGateway: (lastEventId) => s.openGateway(lastEventId),
    orderingKey: (event) => orderingKey(event, s.orderBy),
    enqueue: (key, task) => s.queue.push(key, task),
    dispatch: (event, replayed, carrier) => dispatchTraced(s, event, replayed, carrier),
    relay: (event) => s.telemetry.relay(event),
    intake: (sink) => new Intake(sink, s),
    gatewayFailed: (error) => s.gatewayFailed(error),
  };
  await adapter.start(host);
  return plan;
}
