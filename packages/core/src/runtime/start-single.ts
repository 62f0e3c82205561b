import type { App, Logger } from '@boardbot/protocol';
import type { CommandSyncPlan } from '../commands/sync/plan.js';
import { syncCommands } from '../commands/sync/sync.js';
import { queueTask } from '../dispatch/keyed-queue.js';
import type { BotGateway, GatewayFailure, RequestOptions } from '../kernel/ports.js';
import type { BotParts } from './assemble.js';
import { openBotGateway } from './clients.js';
import { intakeBound } from './intake/backpressure.js';
import { boardShareOf } from './intake/board-shares.js';
import { DispatchSink } from './intake/dispatch-sink.js';
import { Intake } from './intake/intake.js';
import type { EventIntake } from './intake/intake-sink.js';
import { PositionKeeper } from './position/position-keeper.js';
import type { Position, PositionKey } from './position/position-store.js';
import { Progress } from './position/progress.js';
import type { ResolvedBotOptions } from './resolve-options.js';

/** What a one-process bot reads from: its gateway and its resume point, kept for the stop. */
export interface SingleFeed {
  gateway?: BotGateway;
  /** Closed at stop: what it set aside stays before the resume point, for the next process. */
  intake?: EventIntake;
  progress?: Progress | undefined;
  keeper?: PositionKeeper;
}

/** What a start did: the command sync's plan, and the facts its `bot started` line gives. */
export interface Started {
  plan: CommandSyncPlan | undefined;
  facts: Record<string, unknown>;
}

/** What {@link startSingle} starts from. */
export interface SingleStart {
  app: App;
  parts: BotParts;
  options: ResolvedBotOptions;
  startedAt: number;
  /** The start's logger and request options (its correlation id). */
  log: Logger;
  requestOptions: RequestOptions;
  /** Tells readiness that the commands are synced. */
  synced(): void;
  /** Hears the gateway's errors (a fatal one stops the bot). */
  gatewayFailed(error: GatewayFailure): void;
  /** Watches the gateway for readiness, with where the resume point stands. */
  watch(gateway: BotGateway, lastEventId: () => string | undefined): void;
}

/**
 * Starts a bot that handles every event itself: syncs the commands, loads the resume point, opens the
 * gateway after it, and feeds its events through the intake to the dispatch. Fills `feed` as it
 * goes, so a stop after a failed start still closes what opened and saves what finished.
 *
 * @param s - the bot's parts and options
 * @param feed - filled with the gateway, the progress and the keeper
 * @returns the sync plan, and how many boards the gateway's `ready` listed
 */
export async function startSingle(s: SingleStart, feed: SingleFeed): Promise<Started> {
  const { parts, options, log } = s;
  const plan = await syncCommands(parts.rest, [...parts.commands], options.commandSync, log, s.requestOptions);
  s.synced();
  const key: PositionKey = { apiUrl: options.apiUrl, appId: s.app.id };
  const position = await loadPosition(s, key);
  // With `position: false` nothing is recorded: no Progress, no keeper.
  const progress = parts.positions ? new Progress(position) : undefined;
  feed.progress = progress;
  if (parts.positions && progress) {
    feed.keeper = new PositionKeeper(parts.positions, key, progress, {
      flushMs: options.positionFlushMs,
      clock: parts.clock,
      log: parts.log,
    });
  }
  const sink = new DispatchSink({
    queue: parts.queue,
    dispatcher: parts.dispatcher,
    telemetry: parts.telemetry,
    progress,
    keeper: feed.keeper,
    orderBy: options.orderBy,
    startedAt: s.startedAt,
    since: position?.savedAt ?? s.startedAt,
  });
  const pressure = intakeBound(parts, options.maxPendingEvents);
  const boardShare = boardShareOf(options.maxPendingEvents);
  const intake = new Intake(sink, {
    ...parts,
    backfillLimit: options.backfillLimit,
    pressure,
    boardShare,
    // A read-back runs as a worker of the queue: `idle()` and the stop wait for it.
    schedule: (task) => queueTask(parts.queue, task),
  });
  feed.intake = intake;
  const gateway = openBotGateway(options, parts.log, position?.eventId, undefined, () => pressure.gate());
  feed.gateway = gateway;
  gateway.on('dispatch', (event) => intake.receive(event));
  gateway.on('error', (error) => s.gatewayFailed(error));
  s.watch(gateway, () => progress?.lastEventId);
  const ready = await gateway.connect();
  if (position?.eventId === undefined && feed.keeper) {
    // A first start: the live stream's cursor is the resume point from now on. Stored before the
    // bot counts as started, so a crash right after cannot lose what arrives next.
    await feed.keeper.flush();
    s.log.info({ last_event_id: progress?.lastEventId }, 'resume point stored at the live stream');
  }
  return { plan, facts: { boards: ready.board_ids.length } };
}

/** The stored resume point, said in the log: where the bot resumes, or that it starts from now. */
async function loadPosition(s: SingleStart, key: PositionKey): Promise<Position | undefined> {
  const positions = s.parts.positions;
  if (!positions) {
    s.log.warn(
      'position: false: no resume point is kept, so events that arrive while the bot is down are lost. ' +
        'Remove the option to keep one (in BOARDBOT_STATE_DIR, default .boardbot/).',
    );
    return undefined;
  }
  const position = await positions.load(key);
  const store = positions.description;
  if (position?.eventId === undefined) s.log.info({ store }, 'no resume point stored: starting from the live stream');
  else s.log.info({ store, last_event_id: position.eventId }, 'resuming after the stored position');
  return position;
}
