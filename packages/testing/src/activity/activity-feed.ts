import { ACTIVITY_EVENTS, type ActivityEvent } from '@boardbot/emulator/control';
import { EventSource, type FetchLike } from 'eventsource';
import { Agent, fetch } from 'undici';
import { FeedLostError } from '../errors.js';
import type { Journal } from './journal.js';

/** Where the activity stream is and how to authenticate. */
export interface ActivityFeedOptions {
  /** The control API base, e.g. `http://127.0.0.1:PORT/_emulator/v1`. */
  controlUrl: string;
  /** The admin key, sent as a bearer header (never in the URL, so never in a log). */
  adminKey: string;
  /** Where the frames go. */
  journal: Journal;
  /** Told when the stream ends while the feed is open. */
  onLost: (error: FeedLostError) => void;
}

/**
 * Follows the emulator's activity stream (`GET /_emulator/v1/events`, real SSE) into the journal:
 * every message, edit, deletion, invocation and answer on every board, in the platform's order.
 * The stream does not replay, so a dropped connection is reported instead of silently reconnected.
 */
export class ActivityFeed {
  private closing = false;

  private constructor(
    private readonly source: EventSource,
    private readonly options: ActivityFeedOptions,
    private readonly agent: Agent,
  ) {}

  /** Opens the stream; resolves once its `ready` frame arrived (from then on nothing is missed). */
  static async open(options: ActivityFeedOptions): Promise<ActivityFeed> {
    const agent = new Agent();
    const source = connect(options, agent);
    const feed = new ActivityFeed(source, options, agent);
    try {
      await firstReady(source);
    } catch (error) {
      await feed.close();
      throw error;
    }
    feed.listen();
    return feed;
  }

  /**
   * The id of the last activity frame the platform has sent, read from the `ready` frame of a
   * second, short-lived stream. Once the feed's journal reaches it, the journal holds everything
   * that was committed before this call: a barrier without any sleep.
   */
  async cursor(): Promise<number> {
    const probe = connect(this.options, this.agent);
    try {
      return Number(await firstReady(probe));
    } finally {
      probe.close();
    }
  }

  /** Closes the stream and its connections. */
  async close(): Promise<void> {
    this.closing = true;
    this.source.close();
    await this.agent.close().catch(() => {});
  }

  private listen(): void {
    const { journal } = this.options;
    // `ready` only opens the stream; the journal records what happened after it.
    for (const name of ACTIVITY_EVENTS.filter((n) => n !== 'ready')) {
      this.source.addEventListener(name, (event) => {
        const id = Number(event.lastEventId);
        // The frame's `type` is its name (docs/control-api.md), so it narrows the payload.
        const data = JSON.parse(event.data) as ActivityEvent;
        if (data.type === 'message.create' || data.type === 'message.edit' || data.type === 'message.delete') {
          journal.push({ id, name, message: data.message });
        } else if (data.type === 'interaction.create') journal.push({ id, name, interaction: data.interaction });
        else if (data.type === 'interaction.update') journal.push({ id, name, view: data.interaction });
        else journal.advance(id);
      });
    }
    this.source.addEventListener('error', (event) => {
      if (this.closing) return;
      // The stream does not replay: reconnecting would hide what was missed.
      this.source.close();
      this.options.onLost(new FeedLostError(event.message ?? 'the connection ended'));
    });
  }
}

function connect(options: ActivityFeedOptions, agent: Agent): EventSource {
  const authorised: FetchLike = (url, init) =>
    fetch(url, {
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${options.adminKey}` },
      dispatcher: agent,
    });
  return new EventSource(`${options.controlUrl}/events`, { fetch: authorised });
}

/** Resolves with the `id` of the stream's `ready` frame; rejects if the stream fails first. */
function firstReady(source: EventSource): Promise<string> {
  return new Promise((resolve, reject) => {
    const onReady = (event: MessageEvent) => {
      source.removeEventListener('error', onError);
      resolve(event.lastEventId);
    };
    const onError = (event: { message?: string | undefined }) => {
      source.removeEventListener('ready', onReady);
      source.close();
      reject(new FeedLostError(`could not open it: ${event.message ?? 'no detail'}`));
    };
    source.addEventListener('ready', onReady, { once: true });
    source.addEventListener('error', onError, { once: true });
  });
}
