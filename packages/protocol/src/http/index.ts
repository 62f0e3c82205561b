// `@boardbot/protocol/http`: the HTTP helpers every client shares (the REST client, the gateway, the
// control API client and, through it, the playground page). It runs in browsers too: no Node module,
// no `Buffer`, and type-only imports from the rest of the package.

export * from './backoff.js';
export * from './error-envelope.js';
export * from './http-date.js';
export * from './rate-limit-reset.js';
export * from './retry-after.js';
