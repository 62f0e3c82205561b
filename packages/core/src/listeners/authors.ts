import type { Logger, UserProfile } from '@boardbot/protocol';
import type { BotRest, RequestOptions } from '../kernel/ports.js';

const TTL_MS = 5 * 60 * 1000;
const MAX_ENTRIES = 1000;

/**
 * Reads message authors' profiles (`GET /users/{id}`) for `ctx.author`, only when a listener
 * matched, and keeps them a few minutes so a busy board costs one request per person, not per
 * message.
 */
export class AuthorCache {
  private readonly entries = new Map<string, { profile: Promise<UserProfile | null>; at: number }>();

  /**
   * @param rest - the REST client
   * @param now - the clock, in milliseconds
   */
  constructor(
    private readonly rest: Pick<BotRest, 'getUser'>,
    private readonly now: () => number,
  ) {}

  /** The profile of `userId`, or null (and a warning) when it cannot be read. */
  get(userId: string, log: Logger, options: RequestOptions): Promise<UserProfile | null> {
    const hit = this.entries.get(userId);
    if (hit && this.now() - hit.at < TTL_MS) return hit.profile;
    const profile = this.rest.getUser(userId, options).catch((error: unknown) => {
      log.warn({ err: error, user_id: userId }, 'could not read the author profile; ctx.author is null');
      this.entries.delete(userId);
      return null;
    });
    this.entries.delete(userId);
    this.entries.set(userId, { profile, at: this.now() });
    // Map keeps insertion order: the first key is the least recently fetched.
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    return profile;
  }
}
