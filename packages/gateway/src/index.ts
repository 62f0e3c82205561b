export * from './client.js';
export * from './errors.js';
export * from './options.js';
export type * from './transport/fetch-types.js';
export * from './transport/node-http-fetch.js';
export type * from './types.js';
