import type { Logger } from '@boardbot/protocol';
import type { SharedRateLimit } from '@boardbot/rest';
import { ScaleUnavailableError } from '../../errors.js';
import type { CooldownStore } from '../../policies/cooldown-store.js';
import type { SessionStore } from '../../sessions/session-store.js';
import type { ScaleAdapter } from './scale-port.js';

/** The package that provides replicas when `BOARDBOT_REDIS_URL` asks for them. */
const REDIS_PACKAGE = '@boardbot/redis';

/**
 * The bot's {@link ScaleAdapter}, known at once when `createBot({ scale })` gave it, or loaded at
 * `start()` from `@boardbot/redis` when only `BOARDBOT_REDIS_URL` names a Redis (so that
 * `boardbot start --redis` needs no change to the bot). The REST client and the cooldowns are built
 * before that, so they are given this slot's forwarding `rateLimit` and `cooldowns`.
 */
export class ScaleSlot {
  private adapter: ScaleAdapter | undefined;
  private readonly url: string | undefined;

  /** @param source - the adapter, or the Redis URL of `BOARDBOT_REDIS_URL` */
  constructor(source: ScaleAdapter | string) {
    if (typeof source === 'string') this.url = source;
    else this.adapter = source;
  }

  /** The app token's shared bucket (usable once {@link ScaleSlot.resolve} resolved). */
  readonly rateLimit: SharedRateLimit = {
    reserve: (count) => this.current().rateLimit.reserve(count),
    settle: (slot, info) => this.current().rateLimit.settle(slot, info),
    block: (waitMs) => this.current().rateLimit.block(waitMs),
  };

  /** The shared cooldowns (usable once {@link ScaleSlot.resolve} resolved). */
  readonly cooldowns: CooldownStore = {
    take: (key, cooldown, useId) => this.current().cooldowns.take(key, cooldown, useId),
  };

  /**
   * The replicas' shared session store when the adapter has one, else `fallback`; decided at each
   * call, since the adapter may be loaded only at `start()` (sessions are read once it ran).
   * @param fallback - the store the bot would use alone
   */
  sessions(fallback: SessionStore): SessionStore {
    const store = () => this.adapter?.sessions ?? fallback;
    return {
      get description() {
        return store().description;
      },
      read: (key) => store().read(key),
      write: (key, expected, value) => store().write(key, expected, value),
      close: async () => {
        await store().close?.();
      },
    };
  }

  /** The adapter, loaded from `@boardbot/redis` the first time when only a URL was given. */
  async resolve(log: Logger): Promise<ScaleAdapter> {
    if (this.adapter) return this.adapter;
    let module: { redis?: unknown };
    try {
      module = (await import(REDIS_PACKAGE)) as { redis?: unknown };
    } catch (error) {
      throw new ScaleUnavailableError(`${REDIS_PACKAGE} cannot be loaded`, error);
    }
    if (typeof module.redis !== 'function') throw new ScaleUnavailableError(`${REDIS_PACKAGE} exports no redis()`);
    this.adapter = (module.redis as (options: { url: string; logger: Logger }) => ScaleAdapter)({
      url: this.url as string,
      logger: log,
    });
    return this.adapter;
  }

  private current(): ScaleAdapter {
    if (!this.adapter) throw new ScaleUnavailableError(`${REDIS_PACKAGE} was used before start() loaded it`);
    return this.adapter;
  }
}
