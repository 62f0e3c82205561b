import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { it } from 'vitest';
import { median } from './lib/measure.js';
import { record } from './lib/record.js';

// What a bot costs in memory before it does anything: RSS after importing the framework and building
// a bot with one command and one message listener (boardbot, and the peers grammY and Slack Bolt),
// after a forced GC, against bare Node measured the same way. Each figure comes from a fresh `node --expose-gc` (nothing loaded carries over), each
// round runs every subject once, and each figure is the median of its rounds. boardbot's bot is built
// twice: its command without options, and with an options class validated by class-validator (as a
// real bot has, so class-validator's share shows). The decorators are applied as the compiler would.

const root = fileURLToPath(new URL('../../', import.meta.url));
const ROUNDS = 3;

/** Child code that forces a full GC and prints the process's RSS in bytes. */
const MEASURE = `
  globalThis.gc(); globalThis.gc();
  await new Promise((r) => setImmediate(r));
  console.log(JSON.stringify({ rss: process.memoryUsage().rss }));`;

const GRAMMY = `
  import { Bot } from 'grammy';
  const bot = new Bot('123456:bench-token', { botInfo: { id: 123456, is_bot: true, first_name: 'bench',
    username: 'bench_bot', can_join_groups: true, can_read_all_group_messages: false,
    supports_inline_queries: false, can_connect_to_business: false, has_main_web_app: false } });
  bot.command('roll', (ctx) => ctx.reply('4'));
  bot.hears(/^roll (\\d+)$/, (ctx) => ctx.reply(ctx.match[1]));
  ${MEASURE}`;

// Slack Bolt with its default HTTP receiver, built and not started (no server listens), the bot's ids
// given with `tokenVerificationEnabled: false` so construction calls no API (`auth.test`).
const BOLT = `
  import { App } from '@slack/bolt';
  const app = new App({ signingSecret: 'bench-secret', token: 'xoxb-bench-token', botId: 'B0BENCH',
    botUserId: 'U0BENCH', tokenVerificationEnabled: false });
  app.command('/roll', async ({ ack, respond }) => { await ack(); await respond('4'); });
  app.message(/^roll (\\d+)$/, async ({ context, say }) => { await say(context.matches[1]); });
  ${MEASURE}`;

/** boardbot with a `roll` command (with an options class or without) and a message listener. */
function boardbot(withOptions: boolean): string {
  const options = withOptions
    ? `
    import { IsInt, Max, Min } from 'class-validator';
    class RollOptions {}
    for (const d of [Max(1000), Min(2), IsInt(), Option({ description: 'Sides' }), Reflect.metadata('design:type', Number)].reverse()) {
      d(RollOptions.prototype, 'sides');
    }`
    : '';
  return `
    import { Command, createBot, OnMessage, Option } from '@boardbot/core';
    ${options}
    class Roll { run(ctx) { return ctx.reply('4'); } }
    Command({ name: 'roll', description: 'Roll'${withOptions ? ', options: RollOptions' : ''} })(Roll);
    class Listener { roll(ctx) { return ctx.reply(ctx.match[1]); } }
    OnMessage(/^roll (\\d+)$/)(Listener.prototype, 'roll', Object.getOwnPropertyDescriptor(Listener.prototype, 'roll'));
    const bot = createBot({ token: 'dev-token', apiUrl: 'http://127.0.0.1:9/api/v1', handlers: [Roll, Listener] });
    ${MEASURE}`;
}

/** Runs `code` in a fresh `node --expose-gc` and resolves with the RSS it printed, in MB. */
async function rssOf(code: string): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--input-type=module', '-e', code], {
    cwd: root,
  });
  const line = stdout.split('\n').find((l) => l.startsWith('{"rss"'));
  if (!line) throw new Error(`no figure in the child's output:\n${stdout}`);
  return (JSON.parse(line) as { rss: number }).rss / 2 ** 20;
}

it('measures RSS after import and construction: grammY, Bolt, boardbot with and without an options class, bare Node', async () => {
  const subjects = [
    { subject: `bare node ${process.versions.node} (baseline)`, code: MEASURE },
    { subject: 'grammY: one command, one hears', code: GRAMMY },
    { subject: 'Slack Bolt: one command, one message listener', code: BOLT },
    { subject: 'boardbot: one command without options, one listener', code: boardbot(false) },
    { subject: 'boardbot: one command with an options class (class-validator), one listener', code: boardbot(true) },
  ];
  const samples: number[][] = subjects.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, s] of subjects.entries()) samples[i]?.push(await rssOf(s.code));
  }
  const bare = median(samples[0] ?? []);
  const grammy = median(samples[1] ?? []) - bare;
  const bolt = median(samples[2] ?? []) - bare;
  record(
    ...subjects.map(({ subject }, i) => {
      const xs = samples[i] ?? [];
      const value = median(xs);
      const spread = `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)} MB`;
      const above = value - bare;
      // grammY's row is compared with bare Node only; Bolt's with grammY's too; boardbot's with both peers'.
      const peers = [
        i > 1 && `${(above / grammy).toFixed(2)}× grammY's`,
        i > 2 && `${(above / bolt).toFixed(2)}× Bolt's`,
      ];
      const against = peers.filter(Boolean).join(', ');
      const note =
        i === 0
          ? `median of ${ROUNDS}, ${spread}`
          : `median of ${ROUNDS}, ${spread}; +${above.toFixed(1)} MB over bare Node${against ? ` (${against})` : ''}`;
      return {
        bench: 'peers: RSS after import and construction, forced GC',
        subject,
        value,
        unit: 'MB',
        ratio: value / bare,
        note,
      };
    }),
  );
}, 120_000);
