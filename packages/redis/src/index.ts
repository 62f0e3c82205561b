export * from './errors.js';
export * from './options.js';
export * from './redis.js';
export * from './scale.js';
