import type { Services } from '../kernel/services.js';
import type { PluginHost } from '../plugins/plugin.js';
import { SESSION_STORE } from '../sessions/service.js';
import type { BotParts } from './assemble.js';
import type { StopReport } from './exit-codes.js';
import type { ScaleAdapter } from './scale/scale-port.js';
import type { SingleFeed } from './start-single.js';

/** What a stop that finished everything reports. */
export const NOTHING_LEFT: StopReport = { abandoned: [], unhandled: 0 };

/**
 * Tells the running handlers the bot is stopping (streamed answers end, marked interrupted), waits
 * up to `timeoutMs` for the queued and running handlers; then gives up on what is left: the
 * resume point is frozen first (what ends from now on did not finish, so the next process handles it
 * again), queued events are dropped, and running handlers are abandoned.
 *
 * @param parts - the bot's queue, dispatcher, clock and logger
 * @param feed - the resume point of a one-process bot
 * @param timeoutMs - `shutdownTimeoutMs`
 * @returns what was left undone
 */
export async function drainOrAbandon(parts: BotParts, feed: SingleFeed, timeoutMs: number): Promise<StopReport> {
  const { queue, clock, dispatcher, log } = parts;
  // Held bursts stay held (before the resume point, run by the next process); runs going finish.
  dispatcher.close();
  // Messages set aside stay so (before the resume point): the next process reads them again.
  feed.intake?.close();
  // Streamed answers end now, marked interrupted, within the wait below; their events stay above the
  // resume point (a stream could run for minutes, and the next start completes the answer anyway).
  dispatcher.runner.interruptRunning();
  let timer: unknown;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = clock.setTimeout(() => resolve(true), timeoutMs);
  });
  // Streams that released their slot run outside the queue: their final edits are waited for too.
  const drained = queue.idle().then(() => dispatcher.runner.settled());
  const late = await Promise.race([drained.then(() => false), timedOut]);
  clock.clearTimeout(timer);
  if (!late) return NOTHING_LEFT;
  feed.progress?.halt();
  // Queued events first: a handler freed by its abandonment must not let one of them start.
  const unhandled = queue.discardQueued();
  const abandoned = dispatcher.runner.abandonRunning(timeoutMs);
  log.warn({ abandoned: abandoned.length, unhandled, timeout_ms: timeoutMs }, 'handlers still running at shutdown');
  return { abandoned: abandoned.map((run) => ({ handler: run.handler, eventId: run.eventId })), unhandled };
}

/**
 * Closes what a one-process bot opened to read: the gateway, then the last save of the resume point
 * (what finished is not handled again by the next process), then its store.
 * @param parts - the position store
 * @param feed - the gateway and keeper
 */
export async function closeFeed(parts: BotParts, feed: SingleFeed): Promise<void> {
  await feed.gateway?.close().catch(() => {});
  if (feed.keeper) {
    await feed.keeper.flush();
    feed.keeper.stop();
  }
  await parts.positions?.close?.().catch(() => {});
}

/**
 * Closes the rest of a bot, after its feed: the replicas' adapter (which hands what did not finish
 * to the others), the session store, and the REST client unless the caller gave it (it stays theirs).
 * @param parts - the REST client
 * @param services - the session store
 * @param adapter - the replicas' adapter, if any
 * @param ownRest - whether the caller gave the REST client
 */
export async function closeParts(
  parts: BotParts,
  services: Services,
  adapter: ScaleAdapter | undefined,
  ownRest: boolean,
): Promise<void> {
  await adapter?.close().catch((error: unknown) => parts.log.warn({ err: error }, 'the replica did not leave cleanly'));
  await services
    .find(SESSION_STORE)
    ?.close?.()
    .catch(() => {});
  if (!ownRest) await parts.rest.close().catch(() => {});
}

/**
 * Runs every plugin's `onStop` (the scheduler's last), each after the one before; one that fails is
 * logged and the others still run.
 *
 * @param parts - the bot's plugins and logger
 * @param host - the bot, as the plugins know it
 */
export async function stopPlugins(parts: BotParts, host: PluginHost): Promise<void> {
  for (const plugin of parts.plugins) {
    await Promise.resolve(plugin.onStop?.(host)).catch((err: unknown) =>
      parts.log.error({ err, plugin: plugin.name }, 'plugin onStop failed'),
    );
  }
}
