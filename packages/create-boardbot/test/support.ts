import type { CreateIo } from '../src/index.js';

/** The boardbot checkout these tests run in (its packages must be built: `npm test` builds them). */
export const checkout = new URL('../../../', import.meta.url).pathname;

/** A {@link CreateIo} that records its output. */
export function recordingIo(cwd: string, run?: CreateIo['run']): CreateIo & { lines: string[]; errors: string[] } {
  const io = {
    lines: [] as string[],
    errors: [] as string[],
    cwd,
    out: (line: string) => io.lines.push(line),
    err: (line: string) => io.errors.push(line),
    ...(run ? { run } : {}),
  };
  return io;
}
