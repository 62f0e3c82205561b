// What a soaked bot process reports when its soak asks ({ type: 'sample' } over the IPC channel):
// RSS and heap after a forced GC (twice: the second collects what the first's finalizers freed), the
// part of that heap that is V8's compiled code (bytecode and machine code with their metadata, which
// grows as functions get hot: shown beside the heap, to tell it from data kept), the event-loop delay p99 since the
// last sample, and what the bot adds. Used by
// scripts/soak/soak-bot.mjs and, preloaded, scripts/soak/host-sampler.mjs.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapCodeStatistics } from 'node:v8';

/**
 * Answers the soak's samples from now on (the process runs with `--expose-gc` and an IPC channel).
 * @param extra - what the bot adds to each sample (called once per sample) @defaultValue nothing
 */
export function answerSamples(extra = () => ({})) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  process.on('message', (message) => {
    if (message?.type !== 'sample') return;
    globalThis.gc();
    globalThis.gc();
    const { rss, heapUsed } = process.memoryUsage();
    const code = getHeapCodeStatistics();
    const codeBytes = code.code_and_metadata_size + code.bytecode_and_metadata_size;
    const sample = { rss, heapUsed, codeBytes, loopDelayP99Ms: delay.percentile(99) / 1e6, ...extra() };
    delay.reset();
    process.send({ type: 'sample', sample });
  });
}
