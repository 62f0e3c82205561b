export * from './errors.js';
export * from './limits/script-window.js';
export * from './options.js';
export * from './redis.js';
export * from './scale.js';
export * from './sessions/redis-session-store.js';
