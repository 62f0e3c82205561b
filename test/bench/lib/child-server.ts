import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Servers under measurement run in their own process, so the load this process generates does not
// take their event loop.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const children: ChildProcess[] = [];

/** A server running in a child process. */
export interface ChildServer {
  /** The `url` it printed. */
  url: string;
  /** Its process id (for CPU accounting). */
  pid: number;
}

/**
 * Runs `code` (an ES module's source, resolved from the repository root) in a child node process and
 * resolves with the `url` of the JSON line it prints first, e.g. `console.log(JSON.stringify({ url }))`.
 */
export function serveInChild(code: string): Promise<ChildServer> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--input-type=module', '-e', code], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(proc);
    proc.stdout?.once('data', (d) => resolve({ url: JSON.parse(d.toString()).url, pid: proc.pid as number }));
    proc.on('exit', (c) => reject(new Error(`server exited with ${c}`)));
  });
}

/** Builds the emulator package: child servers import it from its `dist/`. */
export function buildEmulator(): void {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'packages/emulator'], {
    cwd: root,
  });
}

/** Kills every server {@link serveInChild} started. */
export function stopChildren(): void {
  for (const c of children.splice(0)) c.kill('SIGKILL');
}
