// Internal entry point (`@boardbot/cli/internal`): the commands' building blocks, which the package's
// own tests drive in process. Not part of the public API: names here may change in any release.
export * from './advice.js';
export * from './commands/commands.js';
export * from './commands/dev.js';
export * from './commands/emulator.js';
export * from './commands/invoke.js';
export * from './commands/shared-options.js';
export * from './commands/start.js';
export * from './config/env-file.js';
export { type HostAppConfig, readHostConfig } from './config/host-config.js';
export * from './config/load-config.js';
export * from './dev/bot-process.js';
export * from './dev/build-report.js';
export * from './dev/dev-state.js';
export * from './dev/emulator-start.js';
export * from './dev/fast-emit.js';
export * from './dev/gateway-relay.js';
export * from './dev/ipc-source.js';
export * from './dev/one-per-press.js';
export * from './dev/relay-messages.js';
export * from './dev/reloads.js';
export * from './dev/watch-compiler.js';
export * from './dev/write-output.js';
export * from './program.js';
export * from './project/load-bot-module.js';
export * from './project/project.js';
export * from './project/project-modules.js';
