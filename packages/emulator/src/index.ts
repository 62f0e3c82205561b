// `@boardbot/emulator`: start the platform as a real server, with its options, URLs and errors.
// The control API's client lives at `@boardbot/emulator/control`; the emulator's parts stay internal.
export { buildControlOpenApiDocument } from './control/openapi/build.js';
export { createEmulator, type Emulator, type ListenOptions } from './create-emulator.js';
export {
  EMULATOR_ERROR_CODES,
  EmulatorDatabaseInUseError,
  type EmulatorDatabaseOwner,
  EmulatorError,
  type EmulatorErrorCode,
  EmulatorExposedDefaultsError,
  EmulatorOptionsError,
  EmulatorRouteError,
  EmulatorStateError,
  EmulatorStorageError,
  PlatformError,
} from './errors.js';
export {
  DEFAULT_DB_PATH,
  DEFAULT_DEV_TOKEN,
  DEFAULT_EMULATOR_LIMITS,
  DEFAULT_EMULATOR_OPTIONS,
  type EmulatorLimits,
  type EmulatorOptions,
  type RateLimitOptions,
} from './options.js';
export type { EmulatorUrls } from './urls.js';
