import { devThread, projectTypescript } from './dev-thread.js';
import { createFastEmitter } from './fast-emit.js';

// The entry of the thread that emits each saved file at once for `boardbot dev` (see watch-thread.ts).
// It is not the type check's thread: a save made while a type check runs (seconds, in one synchronous
// call) is emitted and reloaded then, not once that check ends.

const { data, post } = devThread('emit-worker.js');
const { projectDir, tsconfig } = data;

try {
  const t = await projectTypescript(projectDir);
  const fast = createFastEmitter(t, tsconfig);
  post({ kind: 'started' });
  // Built now, so that the first save is as fast as the next ones.
  fast?.warm();
  // TypeScript's own file watchers, as its watch build uses them. A save that replaces the file (an
  // editor's write-then-rename) is reported as created, not changed: both are a save.
  for (const file of fast?.files ?? []) {
    t.sys.watchFile?.(file, (fileName, kind) => {
      if (kind === t.FileWatcherEventKind.Deleted) return;
      const files = fast?.emit(fileName);
      if (files && files.length > 0) post({ kind: 'fast-emit', files });
    });
  }
} catch (error) {
  post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
}
