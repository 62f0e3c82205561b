// The grammY side of peers-dispatch.bench.ts, in a worker thread of its own: Node 20's
// AsyncLocalStorage, once boardbot's runtime has used it, makes every promise of its isolate pay
// promise hooks; grammY uses none, and measured in the same thread it paid them too (about 3× its
// own cost on Node 20). A worker is another isolate. Each message `{ n }` runs n updates through
// `bot.handleUpdate` (20 `bot.hears` handlers, the last one matching) and answers with the CPU
// microseconds per update; the main thread is idle meanwhile, awaiting the answer, so the process's
// CPU is this thread's.
import { parentPort } from 'node:worker_threads';
import { Bot } from 'grammy';

const bot = new Bot('123456:bench-token', {
  botInfo: {
    id: 123456,
    is_bot: true,
    first_name: 'bench',
    username: 'bench_bot',
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
    has_topics_enabled: false,
    allows_users_to_create_topics: false,
    can_manage_bots: false,
    supports_join_request_queries: false,
  },
});
let handled = 0;
for (let i = 1; i <= 20; i++) {
  bot.hears(new RegExp(`^c${i} (\\d+)$`), (ctx) => {
    handled += ctx.match ? 1 : 0;
  });
}

/** A parsed Telegram update: a text message in a group, as `getUpdates` or a webhook gives it. */
const update = (id) => ({
  update_id: id,
  message: {
    message_id: id,
    date: 1_700_000_000,
    chat: { id: -100123, type: 'supergroup', title: 'bench' },
    from: { id: 42, is_bot: false, first_name: 'Alice', username: 'alice' },
    text: 'c20 5',
  },
});

let nextId = 1;
parentPort.on('message', async ({ n }) => {
  const updates = Array.from({ length: n }, () => update(nextId++));
  const before = handled;
  const cpu = process.cpuUsage();
  for (const u of updates) await bot.handleUpdate(u);
  const used = process.cpuUsage(cpu);
  parentPort.postMessage({ us: (used.user + used.system) / n, handled: handled - before });
});
