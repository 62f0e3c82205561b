// The soak's bot (run by scripts/soak.mjs in a process of its own, `--expose-gc`, with an IPC
// channel): a command, message listeners for new and edited messages, a delete listener, a
// conversation and a schedule, each answer naming the tag of what it answers, so the soak can count
// answers lost and doubled on the platform. It measures its own side and reports it when asked
// ({ type: 'sample' }, scripts/soak/sampler.mjs): RSS and heap after a forced GC, event-loop delay
// p99, and each handler's time with the time it spent waiting on the platform (its REST calls) apart.
import { performance } from 'node:perf_hooks';
import { createBot, defineConversation, Every, OnMessage, OnMessageDelete, OnMessageEdit } from '@boardbot/core';
import { decorate, echoCommand } from './echo-command.mjs';
import { answerSamples } from './sampler.mjs';

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

/** `/echo tag:<tag>` answers `echo <tag>`, its REST call timed. */
const Echo = echoCommand(async (ctx, text) => {
  await platform(ctx, () => ctx.reply(text));
});

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

answerSamples(() => {
  const sample = { runs, ticks, deletes };
  runs = [];
  return sample;
});
await bot.start();
process.send({ type: 'ready' });
