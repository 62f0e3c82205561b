import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * Writes an output of `boardbot dev`'s builds (JavaScript, source map, declarations) so that a bot
 * process loading it at that moment reads the old file or the new one, whole. Bots start while the
 * fast emit's thread and the type check's write: a file written in place is empty between its
 * truncation and its write, and a bot importing it then stops on a module without its exports (the
 * type check wrote again the bytes the fast emit had written, while the bot that emit reloaded was
 * loading them: that bot never started, and nothing reloaded it). So an output that already holds the
 * text is left alone, and a new text is written beside the file and renamed over it.
 *
 * @param path - the output's path
 * @param text - its content
 * @param byteOrderMark - whether the file starts with a UTF-8 byte order mark. @defaultValue false
 * @returns whether the file changed (false: it held this text already)
 */
export function writeOutput(path: string, text: string, byteOrderMark = false): boolean {
  const content = byteOrderMark ? `\uFEFF${text}` : text;
  if (readOrUndefined(path) === content) return false;
  mkdirSync(dirname(path), { recursive: true });
  // Named by process and thread: the two writer threads never share a temporary file.
  const next = `${path}.${process.pid}-${threadId}.tmp`;
  try {
    writeFileSync(next, content);
    renameSync(next, path);
  } finally {
    rmSync(next, { force: true });
  }
  return true;
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
