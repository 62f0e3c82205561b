export * from './activity-events.js';
export * from './create-emulator.js';
export * from './errors.js';
export * from './options.js';
export type { InteractionView } from './platform/interactions.js';
export { PLAYGROUND_DIR } from './playground.js';
export * from './urls.js';
