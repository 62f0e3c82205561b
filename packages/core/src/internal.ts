// Internal entry point (`@boardbot/core/internal`): the building blocks the package's own tests and
// the sibling packages of this repository reach into. Not part of the public API: names here may
// change in any release.

export * from './answers/answer-record.js';
export * from './answers/split-answer.js';
export { COMMAND_KEY, OPTIONS_KEY, SUBCOMMANDS_KEY } from './commands/metadata.js';
export * from './commands/options/derive-options.js';
export * from './commands/options/parse-options.js';
export { syncCommands } from './commands/sync/sync.js';
export * from './dispatch/dispatcher.js';
export * from './dispatch/key-basis.js';
export * from './dispatch/keyed-queue.js';
export * from './dispatch/kinds.js';
export { orderingKey } from './dispatch/ordering.js';
export * from './dispatch/routes.js';
export * from './health/health-env.js';
export * from './health/position-lag.js';
export * from './health/readiness.js';
export * from './kernel/body.js';
export * from './kernel/container.js';
export * from './kernel/environment.js';
export { INJECTABLE_KEY } from './kernel/injectable.js';
export * from './kernel/logger.js';
export * from './kernel/scope.js';
export { matchMessage } from './listeners/match-message.js';
export { MessageContextImpl } from './listeners/message-context.js';
export { EVENT_LISTENERS_KEY, MESSAGE_LISTENERS_KEY } from './listeners/metadata.js';
export * from './listeners/patterns/check-patterns.js';
export { nativeChecker, runNativeChecker } from './listeners/patterns/native-checker.js';
export { runWorker } from './listeners/patterns/run-checker.js';
export type { PolicyChain } from './policies/chain.js';
export * from './policies/cooldowns.js';
export { COOLDOWN_KEY, ERROR_HOOK_KEY, GUARDS_KEY } from './policies/metadata.js';
export * from './policies/middleware.js';
export { describePolicies } from './policies/read-policies.js';
export type * from './policies/steps.js';
export * from './runtime/intake/message-marks.js';
export * from './runtime/position/position-keeper.js';
export * from './runtime/position/progress.js';
export * from './runtime/position/seqs-in-flight.js';
export * from './runtime/resolve-options.js';
export * from './runtime/signals.js';
export * from './schedules/describe-schedules.js';
export { SCHEDULES_KEY } from './schedules/metadata.js';
export * from './schedules/schedule-claims.js';
export * from './schedules/scheduler.js';
export * from './schedules/tick-times.js';
export * from './telemetry/telemetry.js';
