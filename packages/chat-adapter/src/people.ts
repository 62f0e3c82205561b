import type { Message as BoardMessage, UserProfile } from '@boardbot/protocol';
import { ApiError, type RestClient } from '@boardbot/rest';
import type { Author } from 'chat';

// People are few and their profiles rarely change: a bounded map spares a GET per message.
const MAX_PROFILES = 10_000;

/** Who wrote a message, as Chat SDK's `Author`, from profiles read once and kept. */
export class People {
  private readonly profiles = new Map<string, UserProfile>();
  // Reads under way: a burst of messages by one person makes one read, not one per message.
  private readonly reading = new Map<string, Promise<UserProfile>>();

  /**
   * @param rest - reads a profile the first time its person is seen
   * @param botUserId - the app's own user: its messages are `isMe`
   */
  constructor(
    private readonly rest: RestClient,
    private readonly botUserId: string,
  ) {}

  /** Keeps a profile that arrived with an event (an interaction carries its person's). @param p - the profile */
  remember(p: UserProfile): void {
    if (this.profiles.size >= MAX_PROFILES) this.profiles.clear();
    this.profiles.set(p.id, p);
  }

  /**
   * The author of a message; a webhook's message is by its name, a bot.
   * @param m - the message
   */
  async authorOf(m: BoardMessage): Promise<Author> {
    if (m.author === null) {
      const name = m.webhook_name ?? 'webhook';
      return { userId: `webhook:${name}`, userName: name, fullName: name, isBot: true, isMe: false };
    }
    return this.author(await this.profile(m.author));
  }

  /**
   * The author as far as it is known now, without a read (for the synchronous `parseMessage`).
   * @param userId - the author's id
   */
  knownAuthor(userId: string | null): Author {
    const p = userId === null ? undefined : this.profiles.get(userId);
    if (p) return this.author(p);
    const id = userId ?? 'webhook';
    return { userId: id, userName: id, fullName: id, isBot: 'unknown', isMe: userId === this.botUserId };
  }

  /** Chat SDK's author of a profile. @param p - the profile */
  author(p: UserProfile): Author {
    return {
      userId: p.id,
      userName: p.username,
      fullName: p.display_name,
      isBot: p.is_bot,
      isMe: p.id === this.botUserId,
    };
  }

  /**
   * A person's profile, or null when the platform knows no such user.
   * @param id - the user's id
   */
  async find(id: string): Promise<UserProfile | null> {
    try {
      return this.remembered(await this.rest.getUser(id));
    } catch (error) {
      if (error instanceof ApiError && (error.apiCode === 'unknown_user' || error.apiCode === 'validation_failed')) {
        return null;
      }
      throw error;
    }
  }

  private remembered(p: UserProfile): UserProfile {
    this.remember(p);
    return p;
  }

  private profile(id: string): Promise<UserProfile> {
    const known = this.profiles.get(id);
    if (known) return Promise.resolve(known);
    let read = this.reading.get(id);
    if (read === undefined) {
      read = this.read(id).finally(() => this.reading.delete(id));
      this.reading.set(id, read);
    }
    return read;
  }

  private async read(id: string): Promise<UserProfile> {
    try {
      const p = await this.rest.getUser(id);
      this.remember(p);
      return p;
    } catch (error) {
      if (!(error instanceof ApiError && error.apiCode === 'unknown_user')) throw error;
      // A person removed from the platform still wrote the message: they keep their id as a name.
      return {
        id,
        username: id,
        display_name: id,
        avatar_url: null,
        is_bot: false,
        created_at: new Date(0).toISOString(),
      };
    }
  }
}
