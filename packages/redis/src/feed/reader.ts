import type { BotEvent, BotGateway, EventIntake, IntakeSink, SourceHost } from '@boardbot/core';
import type { Connected } from '../connection.js';
import { type ReadsAlong, type StreamEntry, takenEntry } from '../consume/read-along.js';
import { GROUP } from '../keys.js';
import type { Lease } from '../lease/lease.js';
import { partitionOf } from '../partitions/partition-of.js';
import { APPEND, BASELINE } from '../scripts/feed-scripts.js';
import { Backlog } from './backlog.js';
import { backfillEntryId, entryIdOf, sortKeyOf } from './entry-id.js';
import { readPosition, type SharedPosition } from './position.js';

/** An event on its way into a partition stream. */
interface Append {
  event: BotEvent;
  entryId: string;
  sortKey: string;
  /** The trace headers of the event's receipt here, as JSON ('' when the bot does not trace). */
  trace: string;
}

/** Appends sent to Redis at once (in one pipeline, in order). */
const BATCH = 64;

/**
 * The one replica that reads the gateway, under the reader lease: it opens the gateway after the
 * shared resume point and appends each event to the partition stream of its ordering key, with one
 * script that checks the lease and refuses an entry id Redis already passed. So a deposed reader (one
 * paused past its lease) cannot append when it wakes, and an event read twice (by two readers, or
 * replayed from the resume point after a failover) is appended once. The bot's intake stands between
 * the gateway and the appends (this reader is its sink): after a gateway gap it reads the missed
 * messages back, which are appended first, between the gap's cursor and the live events.
 * An event of a partition this replica consumes itself is read along with its append, in the same
 * script: it reaches its handler after one round trip to Redis instead of two.
 */
export class Reader {
  private gateway: BotGateway | undefined;
  private generation = 0;
  private queue: Append[] = [];
  /** Appends sent and not answered yet. */
  private sending = 0;
  private intake: EventIntake | undefined;
  private pumping: Promise<void> | undefined;
  private baselining: Promise<void> | undefined;
  private opening: Promise<void> | undefined;
  private known = '';
  private restart = false;
  private refused = 0;
  private stopped = false;
  private readonly backlog: Backlog;

  /**
   * @param c - the replica's connection
   * @param lease - the reader lease
   * @param host - the bot (gateway, ordering keys, local dispatch)
   * @param partitions - the partition count
   * @param maxBacklog - the shared backlog at which the gateway stops reading (see {@link Backlog})
   * @param local - this replica's consumer, which takes the events read along with their appends
   */
  constructor(
    private readonly c: Connected,
    private readonly lease: Lease,
    private readonly host: SourceHost,
    private readonly partitions: number,
    maxBacklog: number,
    private readonly local?: ReadsAlong,
  ) {
    this.backlog = new Backlog(c, maxBacklog, () => this.queue.length + this.sending);
  }

  /** Whether this replica holds the reader lease. */
  get leading(): boolean {
    return this.lease.value !== undefined;
  }

  /**
   * One heartbeat: renews the lease, or tries to take it. Never waits for the gateway: opening it
   * (and appending what it replays) runs beside the heartbeats, which must keep every lease alive.
   */
  async tick(): Promise<void> {
    if (this.stopped) return;
    if (this.leading) {
      if (!(await this.lease.renew())) {
        this.depose('its lease expired (the process was paused, or cut off from Redis, longer than leaseMs)');
        return;
      }
    } else {
      if (!(await this.lease.acquire())) return;
      this.c.log.info({ fence: this.lease.token }, 'reader elected: this replica reads the gateway');
    }
    // While the backlog holds the gateway, only this measure sees the replicas catch up.
    void this.backlog.measure();
    if (this.restart || !this.gateway) this.opening ??= this.open().finally(() => (this.opening = undefined));
  }

  /** Resolves once the gateway being opened is open (or failed to open). */
  async opened(): Promise<void> {
    await this.opening;
  }

  /** Stops reading and gives the lease up, so that another replica takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.retire();
    await this.closeGateway();
    await this.pumping;
    await this.lease.release().catch(() => {});
    this.local?.unfed();
  }

  private async open(): Promise<void> {
    await this.closeGateway();
    if (!this.leading) return;
    this.restart = false;
    this.retire();
    const generation = this.generation;
    let position: SharedPosition;
    try {
      position = await readPosition(this.c.client, this.c.keys, this.c.clock.now());
    } catch (error) {
      this.c.log.warn({ err: error }, 'the reader could not read the resume point: trying again on the next heartbeat');
      this.restart = true;
      return;
    }
    if (generation !== this.generation) return;
    this.known = position.appended;
    const intake = this.host.intake(this.sink(position));
    this.intake = intake;
    const gateway = this.host.openGateway(position.eventId, () => this.backlog.gate());
    this.gateway = gateway;
    gateway.on('dispatch', (event) => intake.receive(event));
    gateway.on('error', (error) => {
      if (generation !== this.generation) return;
      if (error.fatal === true) this.host.gatewayFailed(error);
      else this.c.log.warn({ err: error }, 'gateway reported an error');
    });
    try {
      await gateway.connect();
    } catch (error) {
      if (generation !== this.generation) return;
      this.c.log.warn({ err: error }, 'the reader could not open the gateway: trying again on the next heartbeat');
      this.restart = true;
      return;
    }
    await this.baselining;
    this.c.log.info({ last_event_id: position.eventId ?? null, fence: this.lease.token }, 'reading the gateway');
  }

  private async closeGateway(): Promise<void> {
    const gateway = this.gateway;
    this.gateway = undefined;
    await gateway?.close().catch(() => {});
  }

  /** This reader as the intake's sink: what the intake accepts is appended, in order. */
  private sink(position: SharedPosition): IntakeSink {
    const marks = { lastSeq: new Map(Object.entries(position.boards)), since: position.savedAt };
    return {
      gapMessage: 'gateway gap: appending the missed messages first',
      backfillMarks: () => marks,
      // Events handled already are refused by the append (their entry ids are passed).
      handled: () => false,
      ready: (event) => this.ready(event),
      skip: () => {},
      take: (event, place) => {
        this.push(event, place ? backfillEntryId(place.cursor, place.index) : entryIdOf(event.id));
        return Promise.resolve();
      },
      // The missed messages' entry ids sort between the gap's cursor and the live events: the shared
      // resume point cannot pass them before they are acknowledged.
      holdGap: () => () => {},
    };
  }

  private ready(event: BotEvent): void {
    // The ready frame is no event of the log: the reader's own @OnEvent('ready') listeners hear it.
    this.host.enqueue(undefined, () => this.host.dispatch(event, false));
    if (this.known === '' && event.id !== '') {
      // A first start ever: the live stream's cursor is the resume point from now on.
      this.baselining = this.baseline(sortKeyOf(`${event.id}-0`));
    }
  }

  private async baseline(sortKey: string): Promise<void> {
    const value = this.lease.value;
    if (value === undefined) return;
    const done = await BASELINE.run(this.c.client, [this.c.keys.reader, this.c.keys.appended], [value, sortKey]).catch(
      () => 'failed',
    );
    if (done === 'ok') this.known = sortKey > this.known ? sortKey : this.known;
  }

  private push(event: BotEvent, entryId: string | undefined): void {
    if (entryId === undefined) {
      this.c.log.warn({ event_id: event.id, name: event.name }, 'event id is not a decimal: it cannot be appended');
      return;
    }
    const carrier = this.host.relay(event);
    const trace = Object.keys(carrier).length === 0 ? '' : JSON.stringify(carrier);
    this.queue.push({ event, entryId, sortKey: sortKeyOf(entryId), trace });
    this.backlog.changed();
    this.kick();
  }

  private kick(): void {
    this.pumping ??= this.pump().finally(() => {
      this.pumping = undefined;
      // Events queued for a newer gateway while an older pump was ending.
      if (this.queue.length > 0 && this.leading) this.kick();
    });
  }

  /** Appends what is queued, in order, a batch at a time. */
  private async pump(): Promise<void> {
    const generation = this.generation;
    while (this.queue.length > 0 && generation === this.generation) {
      const value = this.lease.value;
      if (value === undefined) return;
      const batch = this.queue.splice(0, BATCH);
      let results: unknown[];
      this.sending = batch.length;
      try {
        // A lone event (live traffic) goes at once; a batch goes in one write, auto-pipelined.
        results =
          batch.length === 1
            ? [await this.append(value, batch[0] as Append, undefined, true)]
            : await Promise.all(batch.map((append, i) => this.append(value, append, batch[i - 1], false)));
      } catch (error) {
        this.sending = 0;
        this.backlog.changed();
        if (generation !== this.generation) return;
        this.c.log.warn(
          { err: error },
          'append failed (Redis unreachable?): the gateway resumes from the stored point',
        );
        this.restartFromPosition();
        return;
      }
      this.sending = 0;
      this.backlog.changed(results.filter((result) => result === 'ok').length);
      for (const [i, result] of results.entries()) {
        if (result === 'ok' || result === 'duplicate') {
          this.known = (batch[i] as Append).sortKey;
          continue;
        }
        if (result === 'deposed') {
          this.refused += results.length - i;
          this.depose('an append was refused: another replica holds the reader lease');
          return;
        }
        this.c.log.warn('Redis has lost appended events (a restart without its data): resuming from the stored point');
        this.restartFromPosition();
        return;
      }
    }
  }

  private append(value: string, append: Append, previous: Append | undefined, now: boolean): Promise<unknown> {
    const { keys } = this.c;
    const key = this.host.orderingKey(append.event);
    const partition = partitionOf(key, append.event.id, this.partitions);
    const along = this.local?.readAlong(partition);
    const local = this.local;
    const payload = JSON.stringify(append.event);
    const keyList = [keys.reader, keys.appended, keys.inflight, keys.partition(partition)];
    const args = [value, append.entryId, append.sortKey, payload, previous?.sortKey ?? this.known, append.trace];
    if (along) {
      keyList.push(keys.partitionLease(partition));
      args.push(along.lease, GROUP, along.consumer);
    }
    const reply = APPEND.run(this.c.client, keyList, args, { now });
    if (!local) return reply;
    return reply.then(
      (result) => {
        let status = result as string;
        if (result === 'read') {
          // The entry read along is this event's own: the consumer takes the event as it is here.
          status = 'ok';
          const trace = append.trace === '' ? undefined : append.trace;
          along?.take([{ id: append.entryId, payload, trace, event: append.event }]);
        } else if (Array.isArray(result)) {
          status = result[0] as string;
          along?.take((result[1] as StreamEntry[]).map(takenEntry));
        } else along?.take(undefined);
        if (status === 'ok') local.appended(partition, append.entryId, append.sortKey);
        return status;
      },
      (error: unknown) => {
        along?.take(undefined);
        throw error;
      },
    );
  }

  /** Ends what the current gateway connection fed: its intake and its appends not sent yet. */
  private retire(): void {
    this.generation++;
    this.queue = [];
    this.backlog.changed();
    this.intake?.close();
    this.intake = undefined;
  }

  private restartFromPosition(): void {
    this.retire();
    this.restart = true;
    void this.closeGateway();
  }

  private depose(why: string): void {
    this.lease.forget();
    this.retire();
    void this.closeGateway();
    this.local?.unfed();
    this.c.log.warn({ refused_appends: this.refused }, `reader deposed: ${why}; it no longer appends`);
  }
}
