import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { resolveOptional } from './load-optional.js';
import type { PatternToCheck, PatternVerdict } from './verdict.js';

// The worker's code, as a string: it loads recheck (its pure JavaScript build, so that no native
// binary or JVM is needed) in its own thread and heap, checks each pattern and posts each verdict.
// It reads as a script and as a module alike (a process started with --input-type=module evaluates
// it as a module, where there is no `require`).
const WORKER_SOURCE = `
const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
const loadHere = process.getBuiltinModule('node:module').createRequire(workerData.recheck);
process.env.RECHECK_SYNC_BACKEND = 'pure';
const { checkSync } = loadHere(workerData.recheck);
for (const p of workerData.patterns) {
  let verdict;
  try {
    const d = checkSync(p.source, p.flags, { timeout: workerData.timeoutMs });
    if (d.status === 'vulnerable') {
      const c = d.complexity;
      verdict = {
        status: 'vulnerable',
        complexity: c.type === 'polynomial' ? 'polynomial (degree ' + c.degree + ')' : c.type,
        attack: d.attack.pattern,
      };
    } else if (d.status === 'safe') verdict = { status: 'safe' };
    else verdict = { status: 'unknown', reason: d.error.kind + (d.error.message ? ': ' + d.error.message : '') };
  } catch (error) {
    verdict = { status: 'unknown', reason: 'the checker failed: ' + (error && error.message) };
  }
  parentPort.postMessage({ hash: p.hash, verdict });
}
`;

/** The checker's name and version: part of each verdict's key. */
export function checkerVersion(): string {
  // Resolved, not loaded: reading recheck itself is the worker's job.
  const { version } = JSON.parse(readFileSync(resolveOptional('recheck/package.json'), 'utf8')) as { version: string };
  return `recheck@${version}`;
}

/**
 * Checks patterns with recheck in a worker thread, outside the bot's heap, and ends the worker.
 * A pattern the worker did not decide (it crashed, or ran out of memory) is `unknown`.
 *
 * @param patterns - the patterns to check
 * @param timeoutMs - how long recheck may think about one pattern before it answers `unknown`
 */
export function runChecker(
  patterns: readonly PatternToCheck[],
  timeoutMs: number,
): Promise<Map<string, PatternVerdict>> {
  const verdicts = new Map<string, PatternVerdict>();
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { recheck: resolveOptional('recheck'), patterns, timeoutMs },
      resourceLimits: { maxOldGenerationSizeMb: 512 },
      stdout: true,
      stderr: true,
    });
    worker.on('message', ({ hash, verdict }: { hash: string; verdict: PatternVerdict }) => {
      verdicts.set(hash, verdict);
      if (verdicts.size === patterns.length) void worker.terminate();
    });
    const done = (why: string) => {
      for (const p of patterns) if (!verdicts.has(p.hash)) verdicts.set(p.hash, { status: 'unknown', reason: why });
      resolve(verdicts);
    };
    worker.on('error', (error) => done(`the checker failed: ${error.message}`));
    worker.on('exit', () => done('the checker stopped before it answered'));
  });
}
