import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary directory, and how to remove it. */
export interface TempDir {
  dir: string;
  /** Removes the directory and everything in it. */
  remove(): void;
}

/**
 * Makes a new directory in the system's temporary directory: outside the checkout, so nothing in
 * it resolves a package from the checkout by accident.
 * @param prefix - the start of its name
 */
export function tempDir(prefix = 'boardbot-'): TempDir {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
