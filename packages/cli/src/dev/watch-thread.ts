import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { BuildResult } from './watch-compiler.js';

/** What the watch thread is given. */
export interface WatchWorkerData {
  /** The bot project's directory: its own `typescript` compiles it. */
  projectDir: string;
  /** Absolute path of the tsconfig to build. */
  tsconfig: string;
}

/** What the watch thread tells `boardbot dev`, in order. */
export type WatchMessage =
  | { kind: 'diagnostic'; text: string }
  | { kind: 'build'; result: BuildResult }
  | { kind: 'fast-emit'; files: string[] }
  | { kind: 'started' }
  | { kind: 'failed'; message: string };

/** Options of {@link watchInThread}. */
export interface WatchThreadOptions extends WatchWorkerData {
  /** Receives each diagnostic of the type check, formatted for people. */
  onDiagnostic: (text: string) => void;
  /** Called after each build of the whole project, failed or not. */
  onBuild: (result: BuildResult) => void;
  /** Called when a saved file's JavaScript was written, before the build that checks it. */
  onFastEmit: (files: string[]) => void;
  /** Called when the thread fails after it started (the bot keeps running its last build). */
  onFailure: (error: Error) => void;
}

/** The project's build running in its thread. */
export interface WatchThread {
  /** Stops the thread and its file watchers. */
  close(): Promise<void>;
}

// Built beside this file's own build, whether the CLI runs from its build or (in its tests) from its
// sources: a worker thread runs JavaScript only.
const WORKER = join(
  dirname(createRequire(import.meta.url).resolve('@boardbot/cli/package.json')),
  'dist/dev/watch-worker.js',
);

/**
 * Builds the project in a worker thread: TypeScript's watch build (`tsc -b --watch`) and, on each save,
 * the fast emit of the saved file (fast-emit.ts). The main thread, which serves the emulator and
 * restarts the bot, never waits for a type check.
 *
 * @param options - see {@link WatchThreadOptions}
 * @returns the thread, once it has loaded TypeScript (its first build then runs)
 */
export function watchInThread(options: WatchThreadOptions): Promise<WatchThread> {
  const worker = new Worker(WORKER, {
    workerData: { projectDir: options.projectDir, tsconfig: options.tsconfig } satisfies WatchWorkerData,
  });
  const thread: WatchThread = {
    close: async () => {
      await worker.terminate();
    },
  };
  let started = false;
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => (started ? options.onFailure(error) : reject(error));
    worker.on('error', fail);
    worker.on('message', (message: WatchMessage) => {
      if (message.kind === 'diagnostic') options.onDiagnostic(message.text);
      else if (message.kind === 'build') options.onBuild(message.result);
      else if (message.kind === 'fast-emit') options.onFastEmit(message.files);
      else if (message.kind === 'started') {
        started = true;
        resolve(thread);
      } else {
        void worker.terminate();
        fail(new Error(message.message));
      }
    });
  });
}
