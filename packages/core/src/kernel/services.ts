import { BotStateError } from '../errors.js';

/**
 * Names one bot-wide service (a session store, a schedule claim store) that features and plugins put
 * in {@link Services}; its type parameter is the service's type, so reads are typed.
 */
export class ServiceKey<T> {
  private declare readonly type: T;

  /** @param name - what the service is, for the error when it is missing */
  constructor(readonly name: string) {}
}

/**
 * The bot's services, by key: how a feature above the kernel (sessions, schedules, a plugin) reaches
 * what the bot was configured with, from any handler's context, without the kernel importing it.
 */
export class Services {
  private readonly values = new Map<ServiceKey<unknown>, unknown>();

  /**
   * Sets (or replaces) a service.
   * @param key - its key
   * @param value - the service
   */
  set<T>(key: ServiceKey<T>, value: T): this {
    this.values.set(key, value);
    return this;
  }

  /** The service of `key`, if set. */
  find<T>(key: ServiceKey<T>): T | undefined {
    return this.values.get(key) as T | undefined;
  }

  /**
   * The service of `key`.
   * @throws BotStateError when no service was set under it
   */
  get<T>(key: ServiceKey<T>): T {
    if (!this.values.has(key)) throw new BotStateError(`No ${key.name} is configured on this bot.`);
    return this.values.get(key) as T;
  }
}
