// Preloaded (`node --import`) into each replica of the host soak (scripts/host-soak.mjs), a real
// `boardbot start --host --redis` process: answers the soak's { type: 'sample' } over the IPC
// channel with what soak-bot.mjs reports of a bot (RSS and heap after a forced GC, event-loop delay
// p99), without holding the process alive.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
process.on('message', (message) => {
  if (message?.type !== 'sample') return;
  globalThis.gc();
  globalThis.gc();
  const { rss, heapUsed } = process.memoryUsage();
  const sample = { rss, heapUsed, loopDelayP99Ms: delay.percentile(99) / 1e6 };
  delay.reset();
  process.send({ type: 'sample', sample });
});
process.channel?.unref();
