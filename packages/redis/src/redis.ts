import type { HostScale, ScaleAdapter } from '@boardbot/core';
import { type RedisHostOptions, RedisHostScale } from './host/redis-host.js';
import type { RedisScaleOptions } from './options.js';
import { RedisScale } from './scale.js';

/**
 * Runs a bot as one of several replicas that share one Redis: give the result to `createBot` as
 * `scale`. One replica at a time (elected under a lease) reads the gateway and appends each event to
 * a Redis Stream, partitioned by board; every replica handles the partitions it holds, in order,
 * acknowledging each event once its handlers finished; the REST rate limit, the cooldowns and the
 * command sync are shared, so the replicas behave as one bot. Without `url` it reads
 * `BOARDBOT_REDIS_URL` (which `boardbot start --redis` sets). See docs/scaling.md.
 *
 * @param options - the Redis URL, partitions, lease time, delivery bound... (see {@link RedisScaleOptions})
 * @example
 * const bot = createBot({ token: process.env.BOARDBOT_TOKEN!, handlers, scale: redis({ url: 'redis://127.0.0.1:6379' }) });
 * await bot.start();
 */
export function redis(options: RedisScaleOptions = {}): ScaleAdapter {
  return new RedisScale(options);
}

/**
 * Runs a host of apps as one of several replicas that share one Redis: give the result to
 * `createHost` as `scale`. The host's apps are spread over its replicas, each app running on one at a
 * time (its whole bot: gateway reader, partitions, handlers) and moving to another replica when that
 * one dies or a new one joins. A replica serves all its apps with one connection for commands, one
 * shared blocking read and one heartbeat; each app's keys in Redis are those of its bot alone. See
 * docs/hosting.md ("Across replicas").
 *
 * @param options - the options of `redis()` for every app, and the host's name in Redis
 * @example
 * const host = createHost({ scale: redisHost({ url: 'redis://127.0.0.1:6379' }) }, apps);
 * await host.start();
 */
export function redisHost(options: RedisHostOptions = {}): HostScale {
  return new RedisHostScale(options);
}
