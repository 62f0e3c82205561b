import { createHash } from 'node:crypto';
import { botMessages, type Posted, unanswered, until } from '@boardbot/test-support';
import type { Person } from '@boardbot/testing';
import { Redis } from 'ioredis';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, cluster } from './support/cluster.js';
import { buildReplicaBot, type ReplicaProcess } from './support/replica-process.js';

// CONTRACT (docs/scaling.md): four replicas of one bot on one Redis and one emulator; a replica,
// the reader included, is killed with SIGKILL every 2 s and restarted, while people post 5,000
// messages and invoke 1,000 commands on 16 boards over more than 30 s. Every effect exactly once,
// in order per board, and no 429 on the wire.
// The emulator's rate limit is raised to 300 requests/s, just above the load (about 200 answers/s):
// the replicas still meet it in the bursts after each failover, through the shared bucket.

beforeAll(() => buildReplicaBot(), 180_000);

let c: Cluster | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

const MESSAGES = 5000;
const COMMANDS = 1000;
const BOARDS = Array.from({ length: 16 }, (_, i) => (i === 0 ? 'general' : i === 1 ? 'random' : `board-${i}`));
const POSTING_MS = 32_000;
const KILL_EVERY_MS = 2000;
const LEASE_MS = 1500;

describe('four replicas, one killed every 2 s', () => {
  it('answer every message and command exactly once, in order per board, with no 429', async ({ annotate }) => {
    // When each replica began reading the gateway, for the failover gaps.
    const readingAt: number[] = [];
    c = await cluster({
      requests: 300,
      extra: { REPLICA_LEASE_MS: String(LEASE_MS) },
      onLine: (line) => {
        if (line.msg === 'reading the gateway') readingAt.push(Date.now());
      },
    });
    const { platform } = c;
    for (const name of BOARDS.slice(2)) await platform.createBoard(name);
    let live: ReplicaProcess[] = [0, 1, 2, 3].map(() => (c as Cluster).start());
    for (const r of live) await r.started();

    const redis = new Redis(c.redis.url);
    const tag = createHash('sha256').update(c.proxy.apiUrl).digest('hex').slice(0, 12);
    const readerKey = `${c.prefix}:{${platform.bot.app.id}:${tag}}:reader`;
    const readerId = async () => ((await redis.get(readerKey)) ?? '').split(':')[1];

    // People post on every board at a steady pace for POSTING_MS.
    const people: Person[] = [platform.person('alice'), platform.person('bob')];
    const posted = new Map<string, Posted>(BOARDS.map((b) => [b, { messages: [], interactions: [] }]));
    const startedAt = Date.now();
    let posting = true;
    const poster = Promise.all(
      BOARDS.map(async (board, b) => {
        const mine = posted.get(board) as Posted;
        const messages = Math.floor((MESSAGES * (b + 1)) / BOARDS.length) - Math.floor((MESSAGES * b) / BOARDS.length);
        const commands = Math.floor((COMMANDS * (b + 1)) / BOARDS.length) - Math.floor((COMMANDS * b) / BOARDS.length);
        const total = messages + commands;
        for (let i = 0; i < total; i++) {
          const due = startedAt + (i * POSTING_MS) / total;
          if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
          const person = people[i % people.length] as Person;
          // Every sixth action is a command, spread through the board's stream.
          if (i % 6 === 5 && mine.interactions.length < commands) {
            mine.interactions.push((await person.start('ask', { n: mine.interactions.length }, { board })).id);
          } else if (mine.messages.length < messages) {
            mine.messages.push(await person.say(`m ${board}-${mine.messages.length}`, { board }));
          } else {
            mine.interactions.push((await person.start('ask', { n: mine.interactions.length }, { board })).id);
          }
        }
      }),
    ).finally(() => {
      posting = false;
    });

    // Every 2 s a replica dies (every other time, the reader) and a new one starts.
    const gaps: number[] = [];
    let kills = 0;
    const killer = (async () => {
      while (posting) {
        // On a fixed schedule, so the time a kill and a restart take does not push the next ones back.
        const due = startedAt + (kills + 1) * KILL_EVERY_MS;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
        if (!posting) break;
        const reader = await readerId();
        const victim =
          (kills % 2 === 0 ? live.find((r) => r.id === reader) : undefined) ??
          live.find((r) => r.id !== reader) ??
          (live[0] as ReplicaProcess);
        const wasReader = victim.id === reader;
        const killedAt = Date.now();
        await victim.signal('SIGKILL');
        kills++;
        live = live.filter((r) => r !== victim);
        live.push((c as Cluster).start());
        if (wasReader) {
          void until(() => readingAt.some((t) => t > killedAt), 'a new reader', {
            timeoutMs: 30_000,
            intervalMs: 20,
          }).then(
            () => gaps.push((readingAt.find((t) => t > killedAt) as number) - killedAt),
            () => {},
          );
        }
      }
    })();
    await Promise.all([poster, killer]);
    const postedAt = Date.now();
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(30_000);
    expect(kills).toBeGreaterThanOrEqual(14);

    const botUser = platform.bot.app.bot_user_id;
    const missing = () => unanswered(posted, (board) => platform.messages(board), botUser);
    await until(async () => (await missing()).length === 0, 'every message and command was answered', {
      timeoutMs: 120_000,
      intervalMs: 500,
      report: async () => `unanswered: ${(await missing()).slice(0, 10).join(', ')}\n${c?.report()}`,
    });
    const drainedMs = Date.now() - postedAt;
    for (const r of live) await r.stop();
    redis.disconnect();

    let answered = 0;
    for (const board of BOARDS) {
      const mine = posted.get(board) as Posted;
      const byBot = botMessages(await platform.messages(board), botUser);
      const replies = byBot.filter((m) => m.reply_to !== null);
      const answers = byBot.filter((m) => m.interaction !== null);
      // Nothing twice, nothing else.
      expect(byBot).toHaveLength(mine.messages.length + mine.interactions.length);
      // Each message has one reply, with its text, in the order the messages were written.
      expect(replies.map((r) => r.reply_to)).toEqual(mine.messages.map((m) => m.id));
      expect(replies.map((r) => r.content)).toEqual(mine.messages.map((m) => `echo ${m.content}`));
      // Each command has one answer, in the order it was invoked.
      expect(answers.map((a) => a.interaction?.id)).toEqual(mine.interactions);
      expect(answers.map((a) => a.content)).toEqual(mine.interactions.map((_, n) => `answer ${n}`));
      answered += byBot.length;
    }
    expect(answered).toBe(MESSAGES + COMMANDS);
    expect(c.proxy.limited).toEqual([]);
    expect(gaps.length).toBeGreaterThan(0);
    const sorted = [...gaps].sort((a, b) => a - b);
    const summary =
      `${kills} kills, ${gaps.length} of the reader; failover gaps (kill to the next reader reading): ` +
      `median ${sorted[Math.floor(sorted.length / 2)]} ms, longest ${sorted.at(-1)} ms (leaseMs ${LEASE_MS}); ` +
      `every answer in ${drainedMs} ms after the last post`;
    // Reported where CI shows it, and attached to the test.
    process.stderr.write(`replica chaos: ${summary}\n`);
    await annotate(summary);
  }, 300_000);
});
