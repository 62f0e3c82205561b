export * from './commands/emulator.js';
export * from './io.js';
export * from './program.js';
