// `@boardbot/emulator/control`: the one client of the emulator's control API and its types, for
// Node and browsers. Nothing here imports Node modules or the server's code at run time (a test
// walks the imports), so a page can bundle it.

export type {
  App,
  Board,
  Command,
  CommandOption,
  Embed,
  ErrorDetail,
  LeafOption,
  Member,
  Message,
  OptionValue,
  UserProfile,
} from '@boardbot/protocol';
export { ACTIVITY_EVENTS, type ActivityEventName } from './activity-events.js';
export * from './activity-stream.js';
export * from './control-client.js';
export * from './errors.js';
export type * from './schemas/activity.js';
export type * from './schemas/defaults.js';
export type * from './schemas/requests.js';
export type * from './schemas/responses.js';
export type * from './schemas/why.js';
export { CONTROL_PATH } from './transport.js';
