import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where one running `boardbot dev` can be reached, written to `.boardbot/dev-<pid>-<port>.json` in
 * the project (git-ignored, beside the emulator's database) so `boardbot invoke` needs no flags. One
 * record per running instance: two `boardbot dev` in one project (each with its own database) each
 * keep theirs, and each removes only its own. It holds the local emulator's admin key: a development
 * credential of a loopback server, never an app token.
 */
export interface DevState {
  /** The emulator's control API base URL. */
  controlUrl: string;
  /** The emulator's admin key. */
  adminKey: string;
  /** The `boardbot dev` process. */
  pid: number;
  /** The emulator's database, as `boardbot dev` printed it (relative to the project when inside it). */
  db?: string;
}

const RECORD = /^dev-(\d+)-(\d+)\.json$/;

/** The project's private state directory, `.boardbot/`. */
export function stateDir(projectDir: string): string {
  return join(projectDir, '.boardbot');
}

/**
 * Makes the project's `.boardbot/` its owner's only (0700), whatever the umask, and tightens one an
 * earlier version left wider: it holds the emulator's database (people's messages) and admin keys.
 *
 * @param projectDir - the project
 * @returns the directory
 */
export function ensureStateDir(projectDir: string): string {
  const dir = stateDir(projectDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return dir;
}

/** The port of a record's control URL. */
export function devPort(state: DevState): number {
  const url = new URL(state.controlUrl);
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}

/** The record's path of the instance `state` describes. */
export function devStatePath(projectDir: string, state: DevState): string {
  return join(stateDir(projectDir), `dev-${state.pid}-${devPort(state)}.json`);
}

/**
 * Writes the record of a starting `boardbot dev`, readable by its owner only (mode 0600) whatever the
 * umask and whatever mode an earlier file had: it holds the admin key. The file is written beside
 * and renamed over the old one, so no reader ever sees it half written or with a looser mode.
 *
 * @param projectDir - the project
 * @param state - where it listens
 * @returns the record's path
 */
export function writeDevState(projectDir: string, state: DevState): string {
  ensureStateDir(projectDir);
  const path = devStatePath(projectDir, state);
  const next = `${path}.tmp`;
  try {
    // `mode` applies only to a new file, minus the umask: the chmod makes it exact.
    writeFileSync(next, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600, flag: 'w' });
    chmodSync(next, 0o600);
    renameSync(next, path);
  } finally {
    rmSync(next, { force: true });
  }
  return path;
}

/**
 * Whether a process runs (one of another user counts: it exists).
 * @param pid - the process id
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readRecord(path: string): DevState | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<DevState>;
    if (typeof value.controlUrl !== 'string' || typeof value.adminKey !== 'string') return undefined;
    const state: DevState = { controlUrl: value.controlUrl, adminKey: value.adminKey, pid: Number(value.pid) };
    if (typeof value.db === 'string') state.db = value.db;
    return state;
  } catch {
    return undefined;
  }
}

/**
 * The records of the project's running `boardbot dev` instances, oldest process first. A record of a
 * process that is gone (killed with `kill -9`, or a crash) is removed on the way.
 *
 * @param projectDir - the project
 */
export function readDevStates(projectDir: string): DevState[] {
  let names: string[];
  try {
    names = readdirSync(stateDir(projectDir));
  } catch {
    return [];
  }
  const states: DevState[] = [];
  for (const name of names) {
    const match = RECORD.exec(name);
    if (!match) continue;
    const path = join(stateDir(projectDir), name);
    if (!isRunning(Number(match[1]))) {
      rmSync(path, { force: true });
      continue;
    }
    const state = readRecord(path);
    if (state) states.push(state);
  }
  return states.sort((a, b) => a.pid - b.pid || devPort(a) - devPort(b));
}

/**
 * Removes the record of a stopping `boardbot dev`: its own, never another instance's.
 *
 * @param projectDir - the project
 * @param state - the record it wrote
 */
export function clearDevState(projectDir: string, state: DevState): void {
  rmSync(devStatePath(projectDir, state), { force: true });
}
