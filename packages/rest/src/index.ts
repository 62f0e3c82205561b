// The query type is the contract's own schema type; re-exported so callers need not import protocol.
export type { ListMessagesQuery } from '@boardbot/protocol';
export * from './board-scan.js';
export * from './client.js';
export * from './errors.js';
export * from './events.js';
export * from './options.js';
export * from './paging.js';
export * from './ratelimit/bucket-state.js';
export { type ResponseHeaders, readRateLimitHeaders } from './ratelimit/read-headers.js';
export type * from './ratelimit/shared-rate-limit.js';
export * from './ratelimit/window-id.js';
export { createRestAgent } from './request/rest-agent.js';
export * from './thread-scan.js';
export * from './user-agent.js';
export * from './version.js';
export type * from './work.js';
