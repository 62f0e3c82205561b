import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { RecheckDiagnostics } from './diagnostics.js';
import { resolveOptional } from './load-optional.js';
import type { PatternToCheck } from './verdict.js';

/** How long past its checks' own timeouts the agent may take before it is killed. */
const AGENT_GRACE_MS = 10_000;

/** recheck's names for this platform, in the name of its native build's package. */
const NATIVE_OS: Partial<Record<NodeJS.Platform, string>> = { darwin: 'macos', linux: 'linux', win32: 'windows' };

/** recheck's native build for this platform (an optional dependency), or undefined when it is not installed. */
export function nativeChecker(): string | undefined {
  const os = NATIVE_OS[process.platform];
  if (!os) return undefined;
  try {
    const manifest = resolveOptional(`recheck-${os}-${process.arch}/package.json`);
    return manifest.replace(/package\.json$/, process.platform === 'win32' ? 'recheck.exe' : 'recheck');
  } catch {
    return undefined;
  }
}

/**
 * Checks patterns with recheck's native build, run as a process of its own (its JSON-RPC agent on
 * stdin and stdout, as recheck's own client speaks to it: the reason recheck's version is pinned),
 * and waits for it to exit, so that no process is left behind (recheck's client leaves it to exit
 * with the thread that started it). Rejects when
 * the binary cannot run here, or stops before it answered everything.
 *
 * @param bin - from {@link nativeChecker}
 * @param patterns - the patterns to check
 * @param timeoutMs - how long recheck may think about one pattern
 */
export function runNativeChecker(
  bin: string,
  patterns: readonly PatternToCheck[],
  timeoutMs: number,
): Promise<Map<string, RecheckDiagnostics>> {
  return new Promise((resolve, reject) => {
    const found = new Map<string, RecheckDiagnostics>();
    const agent = spawn(bin, ['agent'], { stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true });
    // recheck bounds each check by `timeoutMs`; this bounds an agent that hangs regardless.
    const deadline = setTimeout(() => agent.kill('SIGKILL'), patterns.length * timeoutMs + AGENT_GRACE_MS);
    agent.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    agent.stdin.on('error', () => {});
    agent.on('exit', (code, signal) => {
      clearTimeout(deadline);
      if (found.size === patterns.length) resolve(found);
      else reject(new Error(`the native checker stopped (${signal ?? code}) before it answered`));
    });
    createInterface({ input: agent.stdout }).on('line', (line) => {
      let reply: { id?: number; result?: RecheckDiagnostics };
      try {
        reply = JSON.parse(line) as typeof reply;
      } catch {
        return;
      }
      const pattern = reply.id === undefined ? undefined : patterns[reply.id];
      if (!pattern || !reply.result) return;
      found.set(pattern.hash, reply.result);
      // Every answer is in: the agent is ended (and its exit, awaited so that no process is left, resolves).
      if (found.size === patterns.length) agent.kill();
    });
    patterns.forEach((p, id) => {
      const params = { source: p.source, flags: p.flags, params: { timeout: timeoutMs } };
      agent.stdin.write(`${JSON.stringify({ jsonrpc: '2.0+push', id, method: 'check', params })}\n`);
    });
  });
}
