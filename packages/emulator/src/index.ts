export * from './control/activity-events.js';
export { buildControlOpenApiDocument, CONTROL_COMPONENT_SCHEMAS } from './control/openapi/build.js';
export { CONTROL_OPERATIONS, type ControlOperation } from './control/openapi/operations.js';
export * from './create-emulator.js';
export * from './errors.js';
export * from './options.js';
export { PLAYGROUND_DIR } from './playground.js';
export * from './urls.js';
