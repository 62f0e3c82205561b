import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isRunning } from '@boardbot/cli/internal';
import type { Message } from '@boardbot/protocol';
import { eventuallyValue } from '@boardbot/test-support';
import { describe, expect, it, onTestFailed } from 'vitest';
import { Control, POLL } from './support/control.js';
import { runDevForTest } from './support/dev-session.js';
import { fixtureProjectForTest } from './support/fixture-project.js';
import { testIo } from './support/test-io.js';

const RELOADS = 20;
/**
 * One message every this many ms, on the boards in turn: each board's runs (100 ms each) keep up, and
 * at any moment most boards have one in flight, so each reload finds runs to let finish on the old code.
 */
const PACE_MS = 50;

/** The listener of version `v`: it answers with its version, after a moment, so runs are in flight at each reload. */
const echoSource = (v: number) => `import { OnMessage, type MessageContext } from '@boardbot/core';

export class Echo {
  @OnMessage(/^m /)
  async echo(ctx: MessageContext) {
    await new Promise((r) => setTimeout(r, 100));
    return \`v${v} \${ctx.message.content}\`;
  }
}
`;

/** V8's `gc()`: reachable only in a context made while `--expose-gc` is on. */
const gc = (() => {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
})();

/**
 * The heap `dev` holds (it runs in the test's process), after a full collection: the garbage of the
 * test's own polls (every message of every board, each time) is tens of MB, collected or not by then
 * depending on the machine's load.
 */
function heapHeld(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

describe('boardbot dev: reloads under traffic', () => {
  it('answers every message exactly once, in order per board, across 20 reloads on one gateway connection', async () => {
    const project = fixtureProjectForTest('dev-swap', { definition: true });
    project.write('src/echo.ts', echoSource(1));
    project.write(
      'src/bot.ts',
      "import { defineBot } from '@boardbot/core';\nimport { Echo } from './echo.js';\nimport { Ping } from './ping.js';\n\n" +
        'export default defineBot({ handlers: [Ping, Echo] });\n',
    );
    const io = testIo(project.dir);
    const session = await runDevForTest({ port: 0, db: ':memory:', logLevel: 'warn' }, io);
    onTestFailed(() => console.error(io.text()));
    const pids: number[] = [];
    session.on('bot-start', ({ pid }) => pid !== undefined && pids.push(pid));
    const control = new Control(session.urls.controlUrl, session.emulator.adminKey);
    await control.firstAnswer('ping');
    const { alice, general } = await control.seedIds();
    const app = (await control.client.apps()).find((a) => a.name === 'dev-bot');
    const random = (await control.client.boards()).find((b) => b.name === 'random')?.id;
    if (!app || !random) throw new Error('the default seed is missing');
    const third = await control.client.createBoard({ name: 'third', description: 'A third board' });
    await control.client.setMember(third.id, alice);
    await control.client.install(app.id, third.id);
    const boards = [general, random, third.id];

    // People post on the three boards in turn, at a steady pace, for as long as the reloads go on.
    const posted: Message[] = [];
    let posting = true;
    const traffic = (async () => {
      for (let i = 0; posting; i++) {
        const board = boards[i % boards.length] as string;
        posted.push(await control.client.postMessage(board, { user_id: alice, content: `m ${i}` }));
        await new Promise((r) => setTimeout(r, PACE_MS));
      }
    })();
    // A failed post fails the test where the traffic is awaited, not as an unhandled rejection.
    traffic.catch(() => {});
    onTestFailed(() => {
      posting = false;
    });

    // Each reload: the new version saved, its build awaited (so each reload is one version's; a save
    // made inside a type check is dev-race.test.ts's), then traffic goes on until this version has
    // answered a message. At that moment at most the process feeding and one starting
    // beside it are alive (no process piles up), and the parent's heap is sampled.
    const heap: number[] = [];
    const answeredBy = async (v: number) =>
      eventuallyValue(
        async () => (await Promise.all(boards.map((b) => control.allMessages(b)))).flat(),
        (all) => all.some((m) => m.author === app.bot_user_id && m.content?.startsWith(`v${v} `)),
        { ...POLL, timeoutMs: 30_000 },
      );
    for (let v = 2; v <= RELOADS + 1; v++) {
      const built = new Promise<void>((resolve) => session.once('build', () => resolve()));
      project.write('src/echo.ts', echoSource(v));
      await built;
      await answeredBy(v);
      expect(
        pids.slice(0, -2).filter((pid) => isRunning(pid)),
        `processes left running at v${v}`,
      ).toEqual([]);
      heap.push(heapHeld());
    }
    posting = false;
    await traffic;

    const ids = new Set(posted.map((m) => m.id));
    const answers = async () =>
      (await Promise.all(boards.map((b) => control.allMessages(b))))
        .flat()
        .filter((m) => m.author === app.bot_user_id && ids.has(m.reply_to ?? ''));
    await eventuallyValue(answers, (found) => found.length >= posted.length, { ...POLL, timeoutMs: 60_000 });
    const found = await answers();

    // Nothing lost, nothing twice.
    expect(found).toHaveLength(posted.length);
    expect(new Set(found.map((m) => m.reply_to)).size).toBe(posted.length);
    for (const board of boards) {
      const asked = posted.filter((m) => m.board_id === board);
      const answered = found.filter((m) => m.board_id === board).sort((a, b) => a.seq - b.seq);
      // In order per board, each by one version, and never an older version after a newer one.
      expect(answered.map((m) => m.reply_to)).toEqual(asked.map((m) => m.id));
      expect(answered.map((m) => (m.content ?? '').replace(/^v\d+ /, ''))).toEqual(asked.map((m) => m.content));
      const versions = answered.map((m) => Number(/^v(\d+) /.exec(m.content ?? '')?.[1]));
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
    }
    // Every version answered some: the versions really took turns under traffic.
    expect(new Set(found.map((m) => (m.content ?? '').split(' ')[0])).size).toBe(RELOADS + 1);

    // One gateway connection all along, holding nothing unacknowledged at the end.
    const gateway = await eventuallyValue(
      async () => session.gateway(),
      (g) => g.pending === 0,
      POLL,
    );
    expect(gateway.connections).toBe(1);
    // A process per version at least, and every one but the last gone: nothing piled up.
    expect(pids.length).toBeGreaterThanOrEqual(RELOADS + 1);
    await eventuallyValue(
      async () => pids.slice(0, -1).filter((pid) => isRunning(pid)),
      (alive) => alive.length === 0,
      POLL,
    );
    // The parent does not grow with the reloads: it never loads the bot's code, and keeps only what is
    // unacknowledged. 40 MB is far above what it keeps (about 2.5 MB over the 20 reloads) and far below
    // 20 copies of a bot.
    expect(Math.max(...heap.slice(2)) - (heap[1] as number)).toBeLessThan(40 * 1024 * 1024);
  }, 400_000);
});
