import { ApiError, RestClient, UnauthorizedError } from '@boardbot/rest';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interactionFromGateway } from './support/gateway-interaction.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let fx: SeededEmulator;
let rest: RestClient;

beforeAll(async () => {
  fx = await startSeededEmulator({
    devToken: 'rest-test-dev-token-0123456789',
    rateLimit: { requests: 100_000, windowMs: 1000 },
  });
  rest = new RestClient({ token: fx.token, baseUrl: fx.apiUrl });
});

afterAll(async () => {
  await rest?.close();
  await fx?.close();
});

describe('every call against the emulator', () => {
  it('getApp: the token’s app, with the bot user that authors its messages', async () => {
    const app = await rest.getApp();
    expect(app).toEqual({
      id: expect.stringMatching(UUID),
      name: 'dev-bot',
      description: expect.toBeOneOf([null, expect.any(String)]),
      bot_user_id: expect.stringMatching(UUID),
      created_at: expect.stringMatching(TIME),
    });
  });

  it('listBoards and getBoard: the two seeded boards', async () => {
    const boards = await rest.listBoards();
    expect(boards.map((b) => b.name).sort()).toEqual(['general', 'random']);
    for (const b of boards) {
      expect(b).toMatchObject({ id: expect.stringMatching(UUID), created_at: expect.stringMatching(TIME) });
      expect(b.member_count).toBeGreaterThanOrEqual(2);
    }
    expect(await rest.getBoard(fx.seed.general.id)).toEqual(boards.find((b) => b.name === 'general'));
  });

  it('listMembers: alice, bob and the app’s bot user', async () => {
    const app = await rest.getApp();
    const members = await rest.listMembers(fx.seed.general.id);
    const byId = new Map(members.map((m) => [m.user.id, m]));
    expect(byId.get(fx.seed.alice.id)).toMatchObject({
      user: { username: 'alice', is_bot: false },
      joined_at: expect.stringMatching(TIME),
    });
    expect(byId.get(fx.seed.bob.id)?.user.username).toBe('bob');
    expect(byId.get(app.bot_user_id)).toMatchObject({ role: 'app', user: { is_bot: true } });
  });

  it('getUser: a member’s public profile', async () => {
    expect(await rest.getUser(fx.seed.alice.id)).toEqual({
      id: fx.seed.alice.id,
      username: 'alice',
      display_name: 'Alice',
      avatar_url: null,
      is_bot: false,
      created_at: expect.stringMatching(TIME),
    });
  });

  it('sendMessage, editMessage, deleteMessage and listMessages: the life of a message', async () => {
    const app = await rest.getApp();
    const person = await fx.control.postMessage(fx.seed.random.id, { user_id: fx.seed.bob.id, content: 'hi bot' });
    const sent = await rest.sendMessage(fx.seed.random.id, {
      content: 'hello',
      embeds: [{ title: 'T', color: '#112233', fields: [{ name: 'a', value: 'b', inline: true }] }],
      replyTo: person.id,
    });
    expect(sent).toMatchObject({
      id: expect.stringMatching(UUID),
      board_id: fx.seed.random.id,
      author: app.bot_user_id,
      kind: 'reply',
      content: 'hello',
      embeds: [{ title: 'T', color: '#112233', fields: [{ name: 'a', value: 'b', inline: true }] }],
      reply_to: person.id,
      seq: person.seq + 1,
      edited_at: null,
      deleted_at: null,
    });
    const edited = await rest.editMessage(fx.seed.random.id, sent.id, { content: 'hello, edited' });
    expect(edited).toMatchObject({ id: sent.id, content: 'hello, edited', edited_at: expect.stringMatching(TIME) });

    const page = await rest.listMessages(fx.seed.random.id, { limit: 2 });
    expect(page.map((m) => m.id)).toEqual([sent.id, person.id]);
    expect(page[0]?.content).toBe('hello, edited');

    await expect(rest.deleteMessage(fx.seed.random.id, sent.id)).resolves.toBeUndefined();
    await expect(rest.deleteMessage(fx.seed.random.id, sent.id)).resolves.toBeUndefined(); // CONTRACT: idempotent
    const [tombstone] = await rest.listMessages(fx.seed.random.id, { limit: 1 });
    expect(tombstone).toMatchObject({
      id: sent.id,
      seq: sent.seq,
      content: null,
      embeds: null,
      deleted_at: expect.stringMatching(TIME),
    });
    expect(await rest.listMessages(fx.seed.random.id, { before: sent.seq, limit: 1 })).toEqual([
      expect.objectContaining({ id: person.id }),
    ]);
  });

  it('listCommands and replaceCommands: the whole set, ids kept for unchanged names', async () => {
    expect(await rest.listCommands()).toEqual([]);
    const first = await rest.replaceCommands([
      { name: 'ping', description: 'Ping' },
      {
        name: 'roll',
        description: 'Roll a die',
        options: [
          { name: 'sides', description: 'Sides', type: 'integer', required: false, min_value: 2, max_value: 100 },
        ],
      },
    ]);
    expect(first.map((c) => c.name).sort()).toEqual(['ping', 'roll']);
    expect(first.find((c) => c.name === 'roll')).toMatchObject({
      id: expect.stringMatching(UUID),
      options: [{ name: 'sides', type: 'integer', min_value: 2, max_value: 100 }],
      updated_at: expect.stringMatching(TIME),
    });
    const second = await rest.replaceCommands([
      { name: 'roll', description: 'Roll a die', options: first.find((c) => c.name === 'roll')?.options ?? [] },
    ]);
    expect(second).toHaveLength(1);
    expect(second[0]?.id).toBe(first.find((c) => c.name === 'roll')?.id);
    expect(await rest.listCommands()).toEqual(second);
  });

  it('answerInteraction: replies with the token from the gateway, without the app token', async () => {
    await rest.replaceCommands([{ name: 'ping', description: 'Ping' }]);
    let invoked: { id: string } | undefined;
    const interaction = await interactionFromGateway(fx.apiUrl, fx.token, async () => {
      invoked = await fx.control.invoke({
        board_id: fx.seed.general.id,
        user_id: fx.seed.alice.id,
        command: 'ping',
      });
    });
    expect(interaction.id).toBe(invoked?.id);
    const tokenless = new RestClient({ baseUrl: fx.apiUrl });
    try {
      const reply = await tokenless.answerInteraction(interaction.token, {
        content: 'pong',
        embeds: [{ description: 'd' }],
      });
      expect(reply).toMatchObject({
        kind: 'interaction_response',
        board_id: fx.seed.general.id,
        content: 'pong',
        embeds: [{ description: 'd' }],
        interaction: { id: interaction.id, name: 'ping', user_id: fx.seed.alice.id },
      });
      const followUp = await tokenless.answerInteraction(interaction.token, { content: 'again' });
      expect(followUp.seq).toBeGreaterThan(reply.seq);
      const view = await fx.control.interaction(interaction.id);
      expect(view.answers.map((m) => m.content)).toEqual(['pong', 'again']);
    } finally {
      await tokenless.close();
    }
  });

  it('iterateMessages: every message of a long board, newest first, through real paging', async () => {
    const board = await fx.control.createBoard({ name: `paging-${Date.now()}` });
    await fx.control.setMember(board.id, fx.seed.alice.id);
    const app = await rest.getApp();
    await fx.control.install(app.id, board.id);
    for (let i = 1; i <= 230; i++)
      await fx.control.postMessage(board.id, { user_id: fx.seed.alice.id, content: `m${i}` });
    const seqs: number[] = [];
    for await (const m of rest.iterateMessages(board.id)) seqs.push(m.seq);
    expect(seqs).toEqual(Array.from({ length: 230 }, (_, i) => 230 - i));
    const recent: string[] = [];
    for await (const m of rest.iterateMessages(board.id, { untilSeq: 225, pageSize: 2 })) recent.push(m.content ?? '');
    expect(recent).toEqual(['m230', 'm229', 'm228', 'm227', 'm226']);
  });

  it('turns the emulator’s errors into typed errors', async () => {
    await expect(rest.getBoard('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      code: 'BOARDBOT_API_ERROR',
      status: 404,
      apiCode: 'unknown_board',
    });
    await expect(rest.getUser('not-a-uuid')).rejects.toMatchObject({ status: 400, apiCode: 'validation_failed' });
    const lax = new RestClient({ token: fx.token, baseUrl: fx.apiUrl, validateRequests: false });
    const bad = await lax.sendMessage(fx.seed.general.id, { content: '' }).catch((e: unknown) => e);
    await lax.close();
    expect(bad).toBeInstanceOf(ApiError);
    expect((bad as ApiError).details.length).toBeGreaterThan(0);
    const wrong = new RestClient({ token: 'not-the-token', baseUrl: fx.apiUrl });
    const unauthorized = await wrong.getApp().catch((e: unknown) => e);
    await wrong.close();
    expect(unauthorized).toBeInstanceOf(UnauthorizedError);
    expect((unauthorized as Error).message).not.toContain('not-the-token');
  });
});
