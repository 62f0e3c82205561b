export * from './adapter.js';
export * from './create-board-adapter.js';
export * from './errors.js';
export * from './options.js';
export * from './render.js';
export * from './thread-id.js';
export { STREAM_PLACEHOLDER } from './writes/edit-stream.js';
