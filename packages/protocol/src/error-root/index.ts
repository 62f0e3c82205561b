// `@boardbot/protocol/error-root`: the root of boardbot's errors and the factory each package declares
// its errors with. Imports nothing, so the browser bundle of the control client can use it.

export * from './boardbot-error.js';
export * from './cause-code.js';
export * from './error-factory.js';
