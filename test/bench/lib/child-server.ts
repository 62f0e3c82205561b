import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Servers under measurement run in their own process, so the load this process generates does not
// take their event loop.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const children: ChildProcess[] = [];

/**
 * `BOARDBOT_BENCH_CPU_PROF=<dir>`: every child server runs under `node --cpu-prof` and writes its
 * profile to `<dir>` when the bench stops it (a `.cpuprofile` per server, for Chrome's DevTools or
 * `speedscope`).
 */
const profileDir = process.env.BOARDBOT_BENCH_CPU_PROF;

/** A server running in a child process. */
export interface ChildServer {
  /** The `url` it printed. */
  url: string;
  /** Its process id (for CPU accounting). */
  pid: number;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; 10 ms resolution). */
export function cpuSecondsOf(pid: number): number {
  const { user, system } = cpuSplitOf(pid);
  return user + system;
}

/**
 * CPU seconds a process has used so far in its own code (`user`) and in the kernel on its behalf
 * (`system`: socket reads and writes, which over loopback include the receiving side's TCP work).
 */
export function cpuSplitOf(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

/**
 * Runs `code` (an ES module's source, resolved from the repository root) in a child node process and
 * resolves with the `url` of the JSON line it prints first, e.g. `console.log(JSON.stringify({ url }))`.
 */
export function serveInChild(code: string): Promise<ChildServer> {
  // A profile is written only on a normal exit, so a profiled child exits on SIGTERM (see stopChildren).
  const args = profileDir
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${profileDir}`,
        '--input-type=module',
        '-e',
        `process.on('SIGTERM', () => process.exit(0));\n${code}`,
      ]
    : ['--input-type=module', '-e', code];
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(proc);
    proc.stdout?.once('data', (d) => resolve({ url: JSON.parse(d.toString()).url, pid: proc.pid as number }));
    proc.on('exit', (c) => reject(new Error(`server exited with ${c}`)));
  });
}

/** Builds the emulator package: child servers import it from its `dist/`. */
export function buildEmulator(): void {
  buildPackages('emulator');
}

/** Builds packages (and what they depend on) that a child process imports from `dist/`. */
export function buildPackages(...names: string[]): void {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', ...names.map((n) => `packages/${n}`)], { cwd: root });
}

/** Stops every server {@link serveInChild} started; profiled ones are given the time to write their profile. */
export async function stopChildren(): Promise<void> {
  const stopping = children.splice(0).map(
    (c) =>
      new Promise<void>((resolve) => {
        if (c.exitCode !== null || c.signalCode !== null) return resolve();
        c.once('exit', () => resolve());
        c.kill(profileDir ? 'SIGTERM' : 'SIGKILL');
      }),
  );
  await Promise.all(stopping);
}
