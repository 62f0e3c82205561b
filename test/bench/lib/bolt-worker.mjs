// The Slack Bolt side of peers-dispatch.bench.ts, a child process of its own for the reasons
// grammy-worker.mjs gives. Bolt runs
// offline, unpatched: a receiver of our own that opens nothing (Bolt hands every event to
// `app.processEvent`, which is what a receiver calls), the bot token given with its bot and user
// ids and `tokenVerificationEnabled: false`, so Bolt has no reason to call `auth.test`. Every TCP
// connection this thread would open is counted (TLS sockets go through `net.Socket`'s `connect`
// too), and a round with one fails. Each message `{ n }` runs n `message` events through
// `app.processEvent` (20 `app.message` listeners, the last one matching) and answers with the CPU
// microseconds per event.
import { Socket } from 'node:net';
import bolt from '@slack/bolt';

let connections = 0;
const connect = Socket.prototype.connect;
Socket.prototype.connect = function countedConnect(...args) {
  connections++;
  return connect.apply(this, args);
};

/** A receiver that receives nothing: no HTTP server, no socket; the bench calls `processEvent`. */
class OfflineReceiver {
  init(_app) {}
  start() {
    return Promise.resolve();
  }
  stop() {
    return Promise.resolve();
  }
}

const app = new bolt.App({
  receiver: new OfflineReceiver(),
  token: 'xoxb-bench-token',
  botId: 'B0BENCH',
  botUserId: 'U0BENCH',
  tokenVerificationEnabled: false,
});
let handled = 0;
for (let i = 1; i <= 20; i++) {
  app.message(new RegExp(`^c${i} (\\d+)$`), async ({ context }) => {
    handled += context.matches ? 1 : 0;
  });
}

/** A parsed Events API body: a user's message in a channel, as Slack posts it to a bot. */
const body = (id) => ({
  token: 'verification-token',
  team_id: 'T0BENCH',
  api_app_id: 'A0BENCH',
  type: 'event_callback',
  event_id: `Ev${id}`,
  event_time: 1_700_000_000,
  event: {
    type: 'message',
    channel: 'C0BENCH',
    channel_type: 'channel',
    user: 'U042',
    team: 'T0BENCH',
    text: 'c20 5',
    ts: `1700000000.${String(id).padStart(6, '0')}`,
    event_ts: `1700000000.${String(id).padStart(6, '0')}`,
  },
});
const ack = () => Promise.resolve();

let nextId = 1;
process.on('message', async ({ n }) => {
  const bodies = Array.from({ length: n }, () => body(nextId++));
  const before = handled;
  const cpu = process.cpuUsage();
  for (const b of bodies) await app.processEvent({ body: b, ack });
  const used = process.cpuUsage(cpu);
  process.send({ us: (used.user + used.system) / n, handled: handled - before, connections });
});
