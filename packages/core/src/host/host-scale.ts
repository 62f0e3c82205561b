import type { Logger } from '@boardbot/protocol';
import type { Clock } from '../kernel/clock.js';
import type { ScaleAdapter } from '../runtime/scale/scale-port.js';

/**
 * What a host gives its {@link HostScale}: its apps, and the way to run one here or give it up.
 */
export interface AppPlacement {
  /** The ids of the host's apps now (every replica of a host should list the same apps). */
  apps(): readonly string[];
  /** This replica took the app: start its bot here. Resolves once it runs or failed. */
  run(id: string): Promise<void>;
  /** This replica gives the app up (or lost it): stop its bot here, gracefully. */
  release(id: string): Promise<void>;
}

/**
 * Spreads the apps of a host over the host's replicas (processes on one or several machines), each
 * app running on one replica at a time and moving to another when that one dies; and gives each
 * app's bot a scale adapter that shares the replica's connections and heartbeat with the other apps.
 * `@boardbot/redis`'s `redisHost()` implements it; give it as `createHost({ scale })`.
 */
export interface HostScale {
  /** A short description for logs (`redis redis://host:6379`), with no secret in it. */
  readonly description: string;
  /**
   * Connects; the first step of `host.start()`.
   * @param target - the host's logger and clock
   */
  connect(target: { log: Logger; clock: Clock }): Promise<void>;
  /**
   * A scale adapter for one start of an app's bot here (a bot runs once: each start gets a new one),
   * sharing the replica's connections and heartbeat.
   * @param app - the app's id in the host
   */
  adapter(app: string): ScaleAdapter;
  /**
   * Places the apps from now on: calls `placement.run` for each app this replica takes, and
   * `placement.release` for each it gives up. Resolves once its first share was taken.
   * @param placement - the host's apps
   */
  start(placement: AppPlacement): Promise<void>;
  /** Gives every app up (the host stopped them first) and disconnects. */
  close(): Promise<void>;
}
