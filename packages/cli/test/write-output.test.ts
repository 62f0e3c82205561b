import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeOutput } from '@boardbot/cli/internal';
import { describe, expect, it, onTestFinished } from 'vitest';

/** A directory of its own for one test, removed after it. */
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'boardbot-write-output-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** What an open file descriptor reads from the start (what a process that opened the file reads). */
function readOpen(fd: number): string {
  const buffer = Buffer.alloc(4096);
  const bytes = readSync(fd, buffer, 0, buffer.length, 0);
  return buffer.subarray(0, bytes).toString('utf8');
}

describe("the writer of boardbot dev's build outputs", () => {
  it('replaces an output whole: a process that opened the old file reads it whole, a new one reads the new text', () => {
    const dir = scratch();
    const path = join(dir, 'dist', 'echo.js');
    expect(writeOutput(path, 'export class Echo {} // v1\n')).toBe(true);
    const opened = openSync(path, 'r');
    onTestFinished(() => closeSync(opened));

    expect(writeOutput(path, 'export class Echo {} // v2\n')).toBe(true);

    // Written in place (truncated, then written), the file the reader opened would be the new one.
    expect(readOpen(opened)).toBe('export class Echo {} // v1\n');
    expect(readFileSync(path, 'utf8')).toBe('export class Echo {} // v2\n');
    // Nothing is left beside it.
    expect(readdirSync(join(dir, 'dist'))).toEqual(['echo.js']);
  });

  it('leaves alone an output that already holds the text', () => {
    const path = join(scratch(), 'echo.js');
    writeOutput(path, 'export class Echo {}\n');
    const before = statSync(path);

    expect(writeOutput(path, 'export class Echo {}\n')).toBe(false);

    const after = statSync(path);
    expect({ ino: after.ino, mtimeMs: after.mtimeMs }).toEqual({ ino: before.ino, mtimeMs: before.mtimeMs });
  });

  it('writes the byte order mark when asked, and then compares with it', () => {
    const path = join(scratch(), 'echo.js');
    expect(writeOutput(path, 'export {};\n', true)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('\uFEFFexport {};\n');
    expect(writeOutput(path, 'export {};\n', true)).toBe(false);
    expect(writeOutput(path, 'export {};\n')).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('export {};\n');
  });
});
