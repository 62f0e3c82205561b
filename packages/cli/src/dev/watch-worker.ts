import { parentPort, workerData } from 'node:worker_threads';
import type ts from 'typescript';
import { importFromProject } from '../project/project-modules.js';
import { createFastEmitter } from './fast-emit.js';
import { watchProject } from './watch-compiler.js';
import type { WatchMessage, WatchWorkerData } from './watch-thread.js';

// The entry of the thread that builds the project for `boardbot dev` (see watch-thread.ts): the type
// check of a whole project takes the thread seconds, which would stall the emulator and the bot's
// start, both served by the main thread.

const port = parentPort;
if (!port) throw new Error('watch-worker.js runs as a worker thread of `boardbot dev`');
const { projectDir, tsconfig } = workerData as WatchWorkerData;
const post = (message: WatchMessage) => port.postMessage(message);

try {
  const { default: t } = await importFromProject<{ default: typeof ts }>(
    projectDir,
    'typescript',
    () => import('typescript'),
  );
  const fast = createFastEmitter(t, tsconfig);
  // Started before the first build, which runs inside watchProject: `dev` goes on meanwhile.
  post({ kind: 'started' });
  watchProject({
    typescript: t,
    tsconfig,
    onDiagnostic: (text) => post({ kind: 'diagnostic', text }),
    onBuild: (result) => post({ kind: 'build', result }),
    onFileChange(fileName) {
      const files = fast?.emit(fileName);
      if (files && files.length > 0) post({ kind: 'fast-emit', files });
    },
  });
  // The first build is done: the fast emitter builds its own program now, in this thread, so that
  // the first save is as fast as the next ones.
  fast?.warm();
} catch (error) {
  post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
}
