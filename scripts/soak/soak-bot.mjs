// The soak's bot (run by scripts/soak.mjs in a process of its own, `--expose-gc`, with an IPC
// channel): a command, message listeners for new and edited messages, a delete listener, a
// conversation and a schedule, each answer naming the tag of what it answers, so the soak can count
// answers lost and doubled on the platform. It measures its own side and reports it when asked
// ({ type: 'sample' }): RSS and heap after a forced GC, event-loop delay p99, and each handler's time
// with the time it spent waiting on the platform (its REST calls) apart. Decorators are applied by hand:
// plain Node runs no TypeScript decorators.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import {
  Command,
  createBot,
  defineConversation,
  Every,
  OnMessage,
  OnMessageDelete,
  OnMessageEdit,
  Option,
} from '@boardbot/core';
import { IsString, MaxLength } from 'class-validator';

// BOARDBOT_REDIS_URL, when set, makes this bot one replica of several (createBot reads it).
const { BOARDBOT_API_URL: apiUrl, SOAK_TOKEN: token = 'dev-token' } = process.env;

/** Handler samples since the last report: total milliseconds, and milliseconds waiting on REST. */
let runs = [];
/** Milliseconds each handler context's run waited on the platform. */
const restMs = new WeakMap();
let ticks = 0;
let deletes = 0;

/** Awaits a platform call, counting its time as the emulator's share of the run it is made in. */
async function platform(ctx, call) {
  const started = performance.now();
  try {
    return await call();
  } finally {
    restMs.set(ctx, (restMs.get(ctx) ?? 0) + (performance.now() - started));
  }
}

function decorate(target, key, ...decorators) {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  for (const d of decorators.reverse()) d(target, key, descriptor);
}

class EchoOptions {}
decorate(
  EchoOptions.prototype,
  'tag',
  Reflect.metadata('design:type', String),
  Option({ description: 'Tag' }),
  IsString(),
  MaxLength(64),
);

/** `/echo tag:<tag>` answers `echo <tag>`. */
class Echo {
  async run(ctx, { tag }) {
    await platform(ctx, () => ctx.reply(`echo ${tag}`));
  }
}
Command({ name: 'echo', description: 'Echo a tag', options: EchoOptions })(Echo);

const Ask = defineConversation({
  name: 'ask',
  questions: ['Your answer?'],
  done: (_ctx, [answer]) => `thanks ${String(answer).replace(/^answer /, '')}`,
  timeoutMs: 120_000,
});

class Listeners {
  /** `ping <tag>` → `pong <tag>`. */
  async ping(ctx) {
    await platform(ctx, () => ctx.reply(`pong ${ctx.match[1]}`));
  }
  /** A message edited to `edit <tag>` → `edited <tag>`. */
  async edited(ctx) {
    await platform(ctx, () => ctx.reply(`edited ${ctx.match[1]}`));
  }
  /** A deleted message is counted (nothing to answer on the board). */
  deleted() {
    deletes++;
  }
  /** `!ask` opens the conversation; its one question is asked, the next message answers it. */
  async ask(ctx) {
    await platform(ctx, () => ctx.session(Ask).start(ctx.message.id));
  }
  /** A schedule: counted, so the soak sees it keeps its pace. */
  tick() {
    ticks++;
  }
}
decorate(Listeners.prototype, 'ping', OnMessage(/^ping (\S+)$/));
decorate(Listeners.prototype, 'edited', OnMessageEdit(/^edit (\S+)$/));
decorate(Listeners.prototype, 'deleted', OnMessageDelete());
decorate(Listeners.prototype, 'ask', OnMessage(/^!ask \S+$/));
decorate(Listeners.prototype, 'tick', Every('5s'));

const bot = createBot({
  token,
  apiUrl,
  handlers: [Echo, Listeners, Ask.listener],
  logger: { level: process.env.SOAK_LOG_LEVEL ?? 'warn' },
  handleSignals: true,
});
bot.use(async (ctx, next) => {
  const started = performance.now();
  await next();
  runs.push([performance.now() - started, restMs.get(ctx) ?? 0]);
});

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
process.on('message', (message) => {
  if (message?.type !== 'sample') return;
  globalThis.gc();
  globalThis.gc();
  const { rss, heapUsed } = process.memoryUsage();
  const sample = { rss, heapUsed, loopDelayP99Ms: delay.percentile(99) / 1e6, runs, ticks, deletes };
  delay.reset();
  runs = [];
  process.send({ type: 'sample', sample });
});
await bot.start();
process.send({ type: 'ready' });
