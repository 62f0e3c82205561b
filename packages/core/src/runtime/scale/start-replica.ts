import type { Logger } from '@boardbot/protocol';
import { rateLimitWindowId } from '@boardbot/rest';
import { commandSetHash } from '../../commands/sync/command-set-hash.js';
import { syncCommands } from '../../commands/sync/sync.js';
import { orderingKey } from '../../dispatch/ordering.js';
import type { Clock } from '../../kernel/clock.js';
import { openBotGateway } from '../clients.js';
import { intakeBound } from '../intake/backpressure.js';
import { createdBefore } from '../intake/dispatch-sink.js';
import { Intake, originOf } from '../intake/intake.js';
import { dispatchTraced } from '../intake/traced-dispatch.js';
import type { ResolvedBotOptions } from '../resolve-options.js';
import type { SingleStart, Started } from '../start-single.js';
import type { ScaleAdapter, ScaleHost } from './scale-port.js';
import type { ScaleSlot } from './scale-slot.js';

/**
 * Loads and connects the replicas' adapter (its rate-limit bucket is named by a hash of the API URL
 * and the token, never the token itself).
 * @param scale - the bot's adapter slot
 * @param options - the API URL and token
 * @param log - the bot's root logger
 * @param clock - the bot's clock
 */
export async function connectReplica(
  scale: ScaleSlot,
  options: Pick<ResolvedBotOptions, 'apiUrl' | 'token'>,
  log: Logger,
  clock: Clock,
): Promise<ScaleAdapter> {
  const adapter = await scale.resolve(log);
  const credential = rateLimitWindowId(options.apiUrl, options.token);
  await adapter.connect({ apiUrl: options.apiUrl, credential, log, clock });
  return adapter;
}

/**
 * Starts the bot as one replica of many (its adapter connected, its app read): names the app's
 * shared state, syncs the commands once across the replicas (in `sync` mode; `check` and `off`
 * behave as for one process), then joins, handing the adapter a {@link ScaleHost} onto this bot's
 * intake, queue and dispatcher.
 *
 * @param s - what a one-process bot starts from, and the replicas' adapter
 * @returns the sync plan, when this replica ran the sync, and what the start log says
 */
export async function startReplica(s: SingleStart & { adapter: ScaleAdapter }): Promise<Started> {
  const { adapter, log: startLog, parts, options } = s;
  await adapter.joinApp(s.app.id);
  startLog.info({ scale: adapter.description }, 'running as a replica');
  const sync = () => syncCommands(parts.rest, [...parts.commands], options.commandSync, startLog, s.requestOptions);
  const plan =
    options.commandSync === 'sync' ? await adapter.syncCommands(commandSetHash(parts.commands), sync) : await sync();
  // Counts what the adapter queues (its consumer's entries, the reader's `ready`) until it finishes;
  // the adapter asks it before reading or claiming entries. The reader's gateway is paused by the
  // shared backlog instead (the adapter's gate), so one busy replica does not starve the others.
  const pressure = intakeBound(parts, options.maxPendingEvents, 'this replica');
  const host: ScaleHost = {
    appId: s.app.id,
    apiUrl: options.apiUrl,
    log: parts.log,
    orderBy: options.orderBy,
    startedAt: s.startedAt,
    openGateway: (lastEventId, readGate) => {
      const gateway = openBotGateway(options, parts.log, lastEventId, parts.scale?.rateLimit, readGate);
      s.watch(gateway, () => lastEventId);
      return gateway;
    },
    orderingKey: (event) => orderingKey(event, options.orderBy),
    enqueue: (key, task) => {
      pressure.add();
      parts.queue.push(key, async () => {
        try {
          return await task();
        } finally {
          pressure.done();
        }
      });
    },
    bound: pressure,
    dispatch: (event, replayed, carrier, owned) => {
      const origin = originOf(event);
      const traced = parts.telemetry.receive(event, origin, carrier);
      const options = { replayed: replayed || createdBefore(event, s.startedAt), origin, owned };
      return dispatchTraced(parts.dispatcher, parts.dispatcher.route(event), options, traced);
    },
    relay: (event) => parts.telemetry.relay(event),
    intake: (sink) => new Intake(sink, { ...parts, backfillLimit: options.backfillLimit }),
    gatewayFailed: (error) => s.gatewayFailed(error),
  };
  await adapter.start(host);
  s.synced();
  return { plan, facts: { replica: true } };
}
