// The grammY side of peers-dispatch.bench.ts, a child process of its own (forked with an IPC
// channel), as each framework of that bench is: a bot is a process, and each is measured in a fresh
// one with Node's default heap (a worker thread's young generation is smaller on Node 26, which taxed
// the framework that allocates most), with only its own heap to collect, and without another
// framework's promise hooks (Node 20's AsyncLocalStorage makes every promise of its isolate pay them).
// Each message `{ n }` runs n updates through `bot.handleUpdate` (20 `bot.hears` handlers, the last
// one matching) and answers with the CPU microseconds per update.
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
process.on('message', async ({ n }) => {
  const updates = Array.from({ length: n }, () => update(nextId++));
  const before = handled;
  const cpu = process.cpuUsage();
  for (const u of updates) await bot.handleUpdate(u);
  const used = process.cpuUsage(cpu);
  process.send({ us: (used.user + used.system) / n, handled: handled - before });
});
