import { Worker } from 'node:worker_threads';
import { type RecheckDiagnostics, toVerdict } from './diagnostics.js';
import { resolveOptional } from './load-optional.js';
import { nativeChecker, runNativeChecker } from './native-checker.js';
import type { PatternToCheck, PatternVerdict } from './verdict.js';

// The worker's code, as a string: it loads recheck's pure JavaScript build in its own thread and
// heap, checks each pattern and posts each diagnosis. It reads as a script and as a module alike (a
// process started with --input-type=module evaluates it as a module, where there is no `require`).
const WORKER_SOURCE = `
const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
const loadHere = process.getBuiltinModule('node:module').createRequire(workerData.recheck);
process.env.RECHECK_SYNC_BACKEND = 'pure';
const { checkSync } = loadHere(workerData.recheck);
for (const p of workerData.patterns) {
  let d;
  try {
    const { status, complexity, attack, error } = checkSync(p.source, p.flags, { timeout: workerData.timeoutMs });
    d = { status, complexity, attack: attack && { pattern: attack.pattern }, error };
  } catch (error) {
    d = { status: 'unknown', error: { kind: 'the checker failed', message: String(error && error.message) } };
  }
  parentPort.postMessage({ hash: p.hash, d });
}
`;

/**
 * Checks patterns with recheck outside the bot's heap: its native build in a process of its own
 * where it is installed for this platform (many times faster), else its JavaScript build in a worker
 * thread. A pattern neither decided is `unknown`.
 *
 * @param patterns - the patterns to check
 * @param timeoutMs - how long recheck may think about one pattern before it answers `unknown`
 */
export async function runChecker(
  patterns: readonly PatternToCheck[],
  timeoutMs: number,
): Promise<Map<string, PatternVerdict>> {
  const bin = nativeChecker();
  const found = bin ? await runNativeChecker(bin, patterns, timeoutMs).catch(() => undefined) : undefined;
  const diagnostics = found ?? (await runWorker(patterns, timeoutMs));
  return new Map(patterns.map((p) => [p.hash, toVerdict(diagnostics.get(p.hash) ?? UNANSWERED)]));
}

/** How long past its checks' own timeouts the worker may take before it is ended (loading recheck takes a while). */
const WORKER_GRACE_MS = 10_000;

const UNANSWERED: RecheckDiagnostics = { status: 'unknown', error: { kind: 'the checker stopped before it answered' } };

/** recheck's JavaScript build in a worker thread, ended once it answered (or crashed). */
export function runWorker(
  patterns: readonly PatternToCheck[],
  timeoutMs: number,
): Promise<Map<string, RecheckDiagnostics>> {
  const found = new Map<string, RecheckDiagnostics>();
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { recheck: resolveOptional('recheck'), patterns, timeoutMs },
      resourceLimits: { maxOldGenerationSizeMb: 512 },
      stdout: true,
      stderr: true,
    });
    // recheck bounds each check by `timeoutMs`; this bounds a worker that hangs regardless.
    const deadline = setTimeout(() => void worker.terminate(), patterns.length * timeoutMs + WORKER_GRACE_MS);
    worker.on('exit', () => clearTimeout(deadline));
    worker.on('message', ({ hash, d }: { hash: string; d: RecheckDiagnostics }) => {
      found.set(hash, d);
      if (found.size === patterns.length) void worker.terminate();
    });
    worker.on('error', () => resolve(found));
    worker.on('exit', () => resolve(found));
  });
}
