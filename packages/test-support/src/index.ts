// boardbot's own test helpers, one idea per file. The seeded emulator has its own entry point
// (`@boardbot/test-support/emulator`), so a test that never starts one does not load the emulator.
export { buildProjects, withLock } from './build-projects.js';
export { eventually, eventuallyValue, until, type WaitOptions } from './eventually.js';
export { type LogLine, type RecordingLogger, recordingLogger } from './recording-logger.js';
export { ALICE, APP, alice, at, BOARD, BOT, command, interaction, message, ready, uuid } from './records.js';
export { type ResourceTracker, trackResources } from './resource-tracker.js';
