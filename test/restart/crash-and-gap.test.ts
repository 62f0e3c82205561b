import type { Message } from '@boardbot/protocol';
import { describe, expect, it } from 'vitest';
import {
  eventually,
  expectRepliedOnceInOrder,
  post,
  repliesTo,
  storedPosition,
  waitForReplies,
} from './support/replies.js';
import { useScenario } from './support/scenario.js';

// A crash, then a gap: the bot is killed with SIGKILL while a handler holds its event after writing,
// and the platform, which keeps almost no events here, can no longer replay what came after the
// stored point. The next process backfills over REST. Effects are counted once it has exited.

const openScenario = useScenario();

/** The fixture's reply: `held …` to a message it holds, `echo …` to the others. */
const fixtureReply = (m: Message) => (m.content?.startsWith('hold ') ? `held ${m.content}` : `echo ${m.content}`);

const GAP = 'gateway gap: dispatching missed messages';

describe('a bot that crashes and then meets a gap', () => {
  it('answers once a message whose handler wrote before the crash, when the backfill reads it back', async () => {
    // Regression: a backfilled message ran as event `backfill:<id>`, so its writes carried other keys
    // than the live run's, and the platform posted the answer a second time.
    const s = await openScenario({ limits: { retainedEvents: 1, retainedEventsMs: 0 } });
    const first = s.startBot({ HOLD_AFTER_WRITE: '1' });
    await first.started();
    const opening = await post(s, 2, 'open');
    await waitForReplies(s, opening);
    const held = await s.platform.person('alice').say('hold once');
    const wrote = await first.waitFor((l) => l.msg === 'fixture wrote' && l.to === held.id);
    await first.kill();

    const whileDown = await post(s, 2, 'down');
    const second = s.startBot();
    await second.started();
    await second.waitFor((l) => l.msg === GAP);
    const all = [...opening, held, ...whileDown];
    await waitForReplies(s, all);
    expect(await second.stop()).toBe(0);
    await expectRepliedOnceInOrder(s, all, 'general', fixtureReply);
    expect((await repliesTo(s, [held])).map((r) => r.id)).toEqual([wrote.reply]);
  }, 120_000);

  it('backfills each board from its stored seq, messages older than the saved point included', async () => {
    const s = await openScenario({ limits: { retainedEvents: 1, retainedEventsMs: 0 } });
    await s.platform.createBoard('ops');
    const boards = ['general', 'random', 'ops'];
    const ids = new Map<string, string>();
    for (const name of boards) ids.set(name, (await s.platform.board(name)).id);
    const mark = async (name: string) => (await storedPosition(s))?.boards[ids.get(name) as string] ?? 0;
    const handled = new Map<string, Message[]>(boards.map((b) => [b, []]));
    const add = (board: string, messages: Message[]) => handled.get(board)?.push(...messages);

    const first = s.startBot({ HOLD_AFTER_WRITE: '1' });
    await first.started();
    for (const board of boards) add(board, await post(s, 1, `${board}-open`, board));
    for (const board of boards) await waitForReplies(s, handled.get(board) as Message[], board);
    // general is held after its write; two more of its messages wait behind it.
    const held = await s.platform.person('alice').say('hold general');
    add('general', [held]);
    await first.waitFor((l) => l.msg === 'fixture wrote' && l.to === held.id);
    const queued = await post(s, 2, 'general-queued');
    add('general', queued);
    // The other boards go on, and the point is saved after the queued messages were written.
    const later = { random: await post(s, 1, 'random-later', 'random'), ops: await post(s, 1, 'ops-later', 'ops') };
    add('random', later.random);
    add('ops', later.ops);
    await eventually(
      s,
      async () =>
        (await mark('random')) >= (later.random[0]?.seq ?? 0) && (await mark('ops')) >= (later.ops[0]?.seq ?? 0),
      'the marks of random and ops stored past their later messages',
    );
    const saved = await storedPosition(s);
    // A backfill from the time the point was saved would miss the held and queued messages.
    expect(saved?.savedAt).toBeGreaterThan(Date.parse(queued[1]?.created_at ?? ''));
    expect(await mark('general')).toBeLessThan(held.seq);
    await first.kill();

    for (const board of boards) add(board, await post(s, 1, `${board}-down`, board));
    const second = s.startBot();
    await second.started();
    await second.waitFor((l) => l.msg === GAP);
    for (const board of boards) await waitForReplies(s, handled.get(board) as Message[], board);
    expect(await second.stop()).toBe(0);

    const from = second.lines.filter((l) => l.msg === 'backfilling after a known seq');
    expect(Object.fromEntries(from.map((l) => [l.board_id, l.after_seq]))).toEqual(
      Object.fromEntries(boards.map((b) => [ids.get(b), saved?.boards[ids.get(b) as string]])),
    );
    expect(second.lines.some((l) => l.msg === 'backfilling from a time: no seq is known for this board')).toBe(false);
    for (const board of boards) {
      await expectRepliedOnceInOrder(s, handled.get(board) as Message[], board, fixtureReply);
    }
  }, 120_000);
});
