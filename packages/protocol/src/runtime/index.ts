// `@boardbot/protocol/runtime`: what a running bot needs (error classes, codes, limits, event names,
// the contract's rules, the logger interface, and checkers compiled ahead of time), without TypeBox
// and the schemas, which the root entry builds as it loads. Every name here is also exported by the
// root entry, which stays the one for schemas, `checkerFor` and the OpenAPI document.
export * from '../answer-writing.js';
export * from '../checker.js';
export * from '../error-root/index.js';
export * from '../errors.js';
export * from '../events.js';
export * from '../invocation-options.js';
export * from '../limits.js';
export * from '../logger.js';
export * from '../open-option-values.js';
export * from '../rules.js';
export type { ErrorDetail } from '../schemas/error-envelope.js';
export * from './checkers.js';
