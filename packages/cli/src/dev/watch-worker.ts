import { devThread, projectTypescript } from './dev-thread.js';
import { watchProject } from './watch-compiler.js';

// The entry of the thread that type-checks the project for `boardbot dev` (see watch-thread.ts): the
// type check of a whole project takes the thread seconds, which would stall the emulator and the
// bot's start, both served by the main thread, and a save's fast emit (emit-worker.ts, beside it).

const { data, post } = devThread('watch-worker.js');
const { projectDir, tsconfig } = data;

try {
  const t = await projectTypescript(projectDir);
  // Started before the first build, which runs inside watchProject: `dev` goes on meanwhile.
  post({ kind: 'started' });
  watchProject({
    typescript: t,
    tsconfig,
    onDiagnostic: (text) => post({ kind: 'diagnostic', text }),
    onBuild: (result) => post({ kind: 'build', result }),
    onBuildStart: () => post({ kind: 'build-start' }),
  });
} catch (error) {
  post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
}
