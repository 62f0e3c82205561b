import { parentPort, workerData } from 'node:worker_threads';
import type ts from 'typescript';
import { importFromProject } from '../project/project-modules.js';
import type { WatchMessage, WatchWorkerData } from './watch-thread.js';

/**
 * The side of a watch thread of `boardbot dev` (watch-worker.ts, emit-worker.ts) that talks to it.
 * @param file - the thread's entry, named in the error when it is not run as a thread
 * @returns what the thread was given, and how it tells `dev`
 */
export function devThread(file: string): { data: WatchWorkerData; post: (message: WatchMessage) => void } {
  const port = parentPort;
  if (!port) throw new Error(`${file} runs as a worker thread of \`boardbot dev\``);
  return { data: workerData as WatchWorkerData, post: (message) => port.postMessage(message) };
}

/**
 * The bot project's own TypeScript (so its version compiles it), else the CLI's.
 * @param projectDir - the project's directory
 */
export async function projectTypescript(projectDir: string): Promise<typeof ts> {
  const { default: t } = await importFromProject<{ default: typeof ts }>(
    projectDir,
    'typescript',
    () => import('typescript'),
  );
  return t;
}
