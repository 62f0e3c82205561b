// The public entry point: run the CLI from code, and the codes it exits and fails with. Everything
// else (the commands' building blocks) is internal: `@boardbot/cli/internal`.
export * from './errors.js';
export * from './exit-codes.js';
export type { CliIo } from './io.js';
export { processIo } from './io.js';
export { runCli } from './run.js';
export { CLI_VERSION } from './version.js';
