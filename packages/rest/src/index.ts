export * from './client.js';
export * from './errors.js';
export * from './events.js';
export * from './options.js';
export * from './paging.js';
export * from './ratelimit/bucket-state.js';
export type { ListMessagesQuery } from './routes.js';
export * from './user-agent.js';
export * from './version.js';
