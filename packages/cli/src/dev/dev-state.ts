import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Where a running `boardbot dev` can be reached, written to `.boardbot/dev.json` in the project
 * (git-ignored, beside the emulator's database) so `boardbot invoke` needs no flags. It holds the
 * local emulator's admin key: a development credential of a loopback server, never an app token.
 */
export interface DevState {
  /** The emulator's control API base URL. */
  controlUrl: string;
  /** The emulator's admin key. */
  adminKey: string;
  /** The `boardbot dev` process. */
  pid: number;
}

/** The file's path in a project. */
export function devStatePath(projectDir: string): string {
  return join(projectDir, '.boardbot', 'dev.json');
}

/**
 * Writes the state of a starting `boardbot dev`, readable by its owner only (mode 0600) whatever the
 * umask and whatever mode an earlier file had: it holds the admin key. The file is written beside
 * and renamed over the old one, so no reader ever sees it half written or with a looser mode.
 *
 * @param projectDir - the project
 * @param state - where it listens
 */
export function writeDevState(projectDir: string, state: DevState): void {
  const path = devStatePath(projectDir);
  mkdirSync(dirname(path), { recursive: true });
  const next = `${path}.${process.pid}.tmp`;
  try {
    // `mode` applies only to a new file, minus the umask: the chmod makes it exact.
    writeFileSync(next, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600, flag: 'w' });
    chmodSync(next, 0o600);
    renameSync(next, path);
  } finally {
    rmSync(next, { force: true });
  }
}

/**
 * Reads the state of the project's `boardbot dev`, if one wrote it.
 *
 * @param projectDir - the project
 * @returns the state, or undefined when there is none or it cannot be read
 */
export function readDevState(projectDir: string): DevState | undefined {
  try {
    const value = JSON.parse(readFileSync(devStatePath(projectDir), 'utf8')) as Partial<DevState>;
    if (typeof value.controlUrl !== 'string' || typeof value.adminKey !== 'string') return undefined;
    return { controlUrl: value.controlUrl, adminKey: value.adminKey, pid: Number(value.pid) };
  } catch {
    return undefined;
  }
}

/**
 * Removes the state file when `boardbot dev` stops, if it is still this process's.
 *
 * @param projectDir - the project
 * @param pid - the stopping process
 */
export function clearDevState(projectDir: string, pid: number): void {
  if (readDevState(projectDir)?.pid === pid) rmSync(devStatePath(projectDir), { force: true });
}
