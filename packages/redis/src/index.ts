export * from './errors.js';
export { DEFAULT_REDIS_HOST_OPTIONS, type RedisHostOptions, RedisHostScale } from './host/redis-host.js';
export * from './limits/script-window.js';
export * from './options.js';
export * from './redis.js';
export * from './scale.js';
export * from './sessions/redis-session-store.js';
