import type { EventEmitter } from 'node:events';
import type { Emulator, EmulatorUrls } from '@boardbot/emulator';
import type { BuildResult } from './watch-compiler.js';

/** What a running `boardbot dev` tells its listeners (the tests, or an embedding script). */
export interface DevEvents {
  /** A build (the type check of the whole project) read the saved files: its check starts. */
  'build-start': [];
  /** A build (the type check of the whole project) finished. */
  build: [BuildResult];
  /** A saved file's JavaScript was written at once, before its type check: the bot restarts on it. */
  'fast-emit': [{ files: string[] }];
  /** The bot process was started (1 the first time, then once per restart). */
  'bot-start': [{ count: number; pid: number | undefined }];
  /** The bot exited by itself. */
  'bot-exit': [{ code: number | null; signal: NodeJS.Signals | null }];
}

/** A running `boardbot dev`. */
export interface DevSession extends EventEmitter<DevEvents> {
  /** The in-process emulator. */
  readonly emulator: Emulator;
  /** Where the emulator listens. */
  readonly urls: EmulatorUrls;
  /** Stops the watch, the bot and the emulator (in that order). Safe to call twice. */
  stop(): Promise<void>;
  /** Settles once everything has stopped. */
  readonly stopped: Promise<void>;
  /**
   * The gateway connection `dev` holds for the bot: how many times it was opened (one across any
   * number of reloads), and how many events it holds that the bot has not acknowledged.
   */
  gateway(): { connections: number; pending: number };
}
