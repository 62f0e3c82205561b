// Decorator metadata needs the Reflect API before any decorator runs: loaded once, here.
import 'reflect-metadata';

export * from './answers/model-messages.js';
export * from './answers/stream-options.js';
export { StreamStatus } from './answers/stream-status.js';
export { DEFAULT_THREAD_OPTIONS, type Thread, type ThreadMessage, type ThreadOptions } from './answers/thread.js';
export * from './broadcasts/broadcast-options.js';
export * from './commands/command.js';
export type * from './commands/context.js';
export type { CommandMetadata, LeafOptionType, OptionMetadata, SubcommandMetadata } from './commands/metadata.js';
export * from './commands/option.js';
export { AllowSlowRegex } from './commands/options/allow-slow-regex.js';
export * from './commands/options/string-max-length.js';
export * from './commands/subcommand.js';
export * from './commands/sync/command-set-hash.js';
export * from './commands/sync/format-plan.js';
export * from './commands/sync/plan.js';
export type { CommandSyncMode } from './commands/sync/sync.js';
export type { ConversationHandle } from './conversations/conversation-handle.js';
export * from './conversations/define-conversation.js';
export {
  AnswerRefusal,
  type AnswersOf,
  type Ask,
  type AskedQuestion,
  type Branch,
  type ClassQuestion,
  type Question,
  type QuestionInput,
  refuse,
  type TextQuestion,
  type Translate,
} from './conversations/question.js';
export * from './dispatch/derive-commands.js';
export type { OrderBy } from './dispatch/ordering.js';
export { DEFAULT_EDITABLE_OPTIONS, type EditableOptions, type ResolvedEditable } from './editable/editable-options.js';
export * from './errors.js';
export type * from './health/health-hub.js';
export * from './health/health-options.js';
export type * from './health/replica-status.js';
export { createHost, type Host, type HostState } from './host/host.js';
export type { HostReadyState } from './host/host-health.js';
export * from './host/host-options.js';
export type { AppPlacement, HostScale } from './host/host-scale.js';
export type { AppStatus, HostedApp, HostedAppState } from './host/hosted-app.js';
export { ContextBase, type ContextDeps, type RunVoice } from './kernel/base-context.js';
export type { Clock } from './kernel/clock.js';
export { inject, type Provider } from './kernel/container.js';
export type * from './kernel/context.js';
export type { CoreEnv } from './kernel/env.js';
export type { BotEvent, EventMeta, EventOrigin } from './kernel/event.js';
export { Inject, type ProviderKey } from './kernel/inject.js';
export { Injectable } from './kernel/injectable.js';
export { type LoggerInput, REDACT_PATHS } from './kernel/logger.js';
export type { Class } from './kernel/metadata.js';
export { type DispatchOutcome, releasedOutcome } from './kernel/outcome.js';
export type * from './kernel/ports.js';
export type { HandlerRun, WriteOperation } from './kernel/run.js';
export { EVENT_BAGGAGE_KEY, HANDLER_BAGGAGE_KEY } from './kernel/run-baggage.js';
export { RunKey } from './kernel/run-key.js';
export type { OpenScope, RunSubject, Scoped } from './kernel/scoped.js';
export { ServiceKey, Services } from './kernel/services.js';
export { createToken, InjectionToken } from './kernel/token.js';
export type { BurstMode, BurstOptions, BurstPolicy } from './listeners/bursts/burst-policy.js';
export type * from './listeners/context.js';
export type {
  EventListenerMetadata,
  MessageEventName,
  MessageListenerMetadata,
  MessageMatcher,
} from './listeners/metadata.js';
export * from './listeners/on-event.js';
export * from './listeners/on-message.js';
export {
  DEFAULT_MATCH_MAX_LENGTH,
  type MessagePattern,
  type MessagePatternOptions,
  type RegexEngine,
} from './listeners/patterns/message-pattern.js';
export * from './permissions/member-roles.js';
export * from './permissions/require-role.js';
export * from './plugins/plugin.js';
export * from './policies/cooldown.js';
export type * from './policies/cooldown-store.js';
export type * from './policies/endings.js';
export type { CanActivate, GuardFn, GuardRef, GuardResult } from './policies/guards.js';
export type * from './policies/kind.js';
export type { CooldownMetadata, CooldownScope } from './policies/metadata.js';
export type { Middleware } from './policies/middleware.js';
export * from './policies/on-error.js';
export * from './policies/stages.js';
export * from './policies/use-guards.js';
export type { Bot, BotState } from './runtime/bot.js';
export * from './runtime/create-bot.js';
export { type BotDefinition, defineBot, isBotDefinition } from './runtime/define-bot.js';
export * from './runtime/exit-codes.js';
export type { HostedBot } from './runtime/hosted.js';
export type { BackfillMarks } from './runtime/intake/backfill.js';
export { Backpressure, type BackpressureHooks } from './runtime/intake/backpressure.js';
export type { BackfillPlace, EventIntake, IntakeSink } from './runtime/intake/intake-sink.js';
export * from './runtime/options.js';
export type * from './runtime/parts/part.js';
export { FilePositionStore } from './runtime/position/file-position-store.js';
export * from './runtime/position/memory-position-store.js';
export type * from './runtime/position/position-store.js';
export type * from './runtime/scale/scale-port.js';
export type { SignalSource } from './runtime/signals.js';
export type * from './runtime/source/event-source.js';
export type * from './schedules/context.js';
export * from './schedules/cron.js';
export * from './schedules/every.js';
export {
  type CronOptions,
  DEFAULT_SCHEDULE_OPTIONS,
  type MissedTicks,
  type OverlappingTicks,
  type ScheduleOptions,
} from './schedules/metadata.js';
export * from './sessions/define-session.js';
export * from './sessions/file-session-store.js';
export * from './sessions/memory-session-store.js';
export type { SessionChange, SessionHandle } from './sessions/session-handle.js';
export type * from './sessions/session-store.js';
export { IDLE_RUN } from './telemetry/idle-run.js';
export type * from './telemetry/metrics-sink.js';
export type { EventTrace } from './telemetry/telemetry.js';
export { CommandCatalogue } from './text-commands/catalogue.js';
export * from './text-commands/help-command.js';
export { DEFAULT_TEXT_COMMAND_OPTIONS, type TextCommandOptions } from './text-commands/options.js';
