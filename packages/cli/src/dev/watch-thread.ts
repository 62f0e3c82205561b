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

/** What the watch threads tell `boardbot dev`, each in order. */
export type WatchMessage =
  | { kind: 'diagnostic'; text: string }
  | { kind: 'build-start' }
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
  /** Called when a build has read the saved files and its type check starts. @defaultValue none */
  onBuildStart?: () => void;
  /** Called when a saved file's JavaScript was written, before the build that checks it. */
  onFastEmit: (files: string[]) => void;
  /** Called when a thread fails after it started (the bot keeps running its last build). */
  onFailure: (error: Error) => void;
}

/** The project's build and fast emit, running in their threads. */
export interface WatchThread {
  /** Stops the threads and their file watchers. */
  close(): Promise<void>;
}

// Built beside this file's own build, whether the CLI runs from its build or (in its tests) from its
// sources: a worker thread runs JavaScript only.
const DIST = join(dirname(createRequire(import.meta.url).resolve('@boardbot/cli/package.json')), 'dist/dev');

/**
 * Builds the project in two worker threads: TypeScript's watch build (`tsc -b --watch`, watch-worker.ts)
 * in one, and in the other, on each save, the fast emit of the saved file (emit-worker.ts, with
 * fast-emit.ts). The main thread, which serves the emulator and restarts the bot, never waits for a
 * type check, and neither does a save made while one runs.
 *
 * @param options - see {@link WatchThreadOptions}
 * @returns the threads, once both have loaded TypeScript (the first build then runs)
 */
export async function watchInThread(options: WatchThreadOptions): Promise<WatchThread> {
  const workers: Worker[] = [];
  const thread: WatchThread = {
    close: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
  const start = (file: string) =>
    new Promise<void>((resolve, reject) => {
      const worker = new Worker(join(DIST, file), {
        workerData: { projectDir: options.projectDir, tsconfig: options.tsconfig } satisfies WatchWorkerData,
      });
      workers.push(worker);
      let started = false;
      const fail = (error: Error) => (started ? options.onFailure(error) : reject(error));
      worker.on('error', fail);
      worker.on('message', (message: WatchMessage) => {
        if (message.kind === 'diagnostic') options.onDiagnostic(message.text);
        else if (message.kind === 'build') options.onBuild(message.result);
        else if (message.kind === 'build-start') options.onBuildStart?.();
        else if (message.kind === 'fast-emit') options.onFastEmit(message.files);
        else if (message.kind === 'started') {
          started = true;
          resolve();
        } else {
          void worker.terminate();
          fail(new Error(message.message));
        }
      });
    });
  try {
    await Promise.all([start('watch-worker.js'), start('emit-worker.js')]);
  } catch (error) {
    await thread.close();
    throw error;
  }
  return thread;
}
