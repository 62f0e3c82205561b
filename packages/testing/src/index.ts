// The control API's client and records are the emulator's (`@boardbot/emulator/control`); the ones a
// harness user meets (`platform.control`, `person.start()`, refusals) are re-exported here.
export {
  type AppInfo,
  ControlApiError,
  type ControlClient,
  type InteractionView,
  type PlatformState,
  type ShownInteraction,
} from '@boardbot/emulator/control';
export type { ActivityRecord } from './activity/journal.js';
export type * from './bot/streamed-answer.js';
export * from './bot/test-bot.js';
export * from './clock/test-clock.js';
export * from './create-test-platform.js';
export * from './errors.js';
export * from './logs/captured-logs.js';
export * from './options.js';
export * from './people/person.js';
export * from './platform/test-platform.js';
export * from './report/message-filter.js';
