import { randomUUID } from 'node:crypto';
import { agents, type BoardKitOptions, boardTools } from '@boardbot/core/agents';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { anotherInstance, HeldPositions } from '../support.js';
import { assistantOf as base, byPrompt, callTool, type MockModel, say, scripted, toolOutputs } from './mock-model.js';

// docs/assistants.md, "A board kit": the model's reads and writes on the board, for the asking person,
// on a real emulator; the AI SDK's mock model scripts the tool calls.

const assistantOf = (model: MockModel, options: BoardKitOptions) => base(model, (ctx) => boardTools(ctx, options), 6);

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

async function start(model: MockModel, options: BoardKitOptions = {}): Promise<TestPlatform> {
  platform = await createTestPlatform({ handlers: [assistantOf(model, options)], plugins: [agents()] });
  return platform;
}

/** What the model was given by each tool call of the turn, from its last prompt. */
function outputsOf(model: MockModel) {
  const prompt = model.doStreamCalls.at(-1)?.prompt;
  if (!prompt) throw new Error('the model was never asked');
  return toolOutputs(prompt);
}

describe('the board kit: reads', () => {
  it('reads the thread of the asking message and the newest messages, cut to the bounds', async () => {
    const model = scripted([callTool('read_thread', {}, 'a'), callTool('read_messages', { limit: 2 }, 'b')]);
    const p = await start(model, { maxChars: 20 });
    const root = await p.person('bob').say('Shall we ship 1.4 this week, or wait for the fix?');
    await p.person('carol').say('unrelated chatter');
    const reply = await p.person('bob').reply(root, 'I vote ship');
    const asked = await p.person('alice').reply(reply, '@assistant what did we decide?');
    await p.bot.nextAnswer({ replyTo: asked }).final();
    const [thread, recent] = outputsOf(model);
    expect(thread?.type).toBe('json');
    expect(thread?.value).toMatchObject({ found: true, complete: true });
    const said = (thread?.value as { messages: { author: string; content: string }[] }).messages;
    // Oldest first, the chatter and the answer being written left out, each text cut to 20 characters.
    expect(said.map((m) => `${m.author}: ${m.content}`)).toEqual([
      'Bob: Shall we ship 1.4 t…',
      'Bob: I vote ship',
      'Alice: @assistant what did…',
    ]);
    const newest = (recent?.value as { messages: { id: string }[] }).messages.map((m) => m.id);
    expect(newest).toEqual([asked.id, reply.id]);
  });

  it('searches a stated number of the newest messages and says how many it read', async () => {
    const on = { board: 'random' };
    const ids: { random?: string } = {};
    const search = (text: string, scan: number) => () =>
      callTool('search_messages', { board_id: ids.random, text, scan }, `${scan}`);
    const model = byPrompt([search('DEPLOY', 3), search('deploy', 4)]);
    const p = await start(model);
    ids.random = (await p.board('random')).id;
    const alice = p.person('alice');
    await alice.say('hi all', on);
    const needle = await p.person('bob').say('the deploy key is in the vault', on);
    for (const text of ['one', 'two', 'three']) await alice.say(text, on);
    const asked = await alice.say('@assistant where is the key?');
    await p.bot.nextAnswer({ replyTo: asked }).final();
    const [near, far] = outputsOf(model);
    // The three after the needle read, the needle not among them; one more finds it.
    expect(near?.value).toEqual({ scanned: 3, more: false, messages: [] });
    expect(far?.value).toMatchObject({ scanned: 4, messages: [{ id: needle.id, content: needle.content }] });
  });

  it('refuses a board the asking person is not a member of, though the bot is on it (confused deputy)', async () => {
    const steal = (boardId: string) => [
      callTool('read_messages', { board_id: boardId }, 'a'),
      callTool('search_messages', { board_id: boardId, text: 'plan' }, 'b'),
      callTool('list_members', { board_id: boardId }, 'c'),
    ];
    const ids: { secret?: string } = {};
    const model = byPrompt([0, 1, 2].map((n) => () => steal(ids.secret ?? '')[n] ?? say('?')));
    const p = await start(model);
    const secret = await p.createBoard('secret');
    ids.secret = secret.id;
    await p.person('eve').say('the secret plan', { board: 'secret' });
    const asked = await p.person('alice').say('@assistant what is on the secret board?');
    const answer = await p.bot.nextAnswer({ replyTo: asked }).final();
    const outputs = outputsOf(model);
    expect(outputs.map((o) => o.type)).toEqual(['error-text', 'error-text', 'error-text']);
    for (const o of outputs) expect(String(o.value)).toContain(`is not a member of board ${secret.id}`);
    expect(answer.text).not.toContain('the secret plan');

    // A member of that board, asking the same, is given it.
    const eveAsked = await p.person('eve').say('@assistant what is on the secret board?');
    await p.bot.nextAnswer({ replyTo: eveAsked }).final();
    const read = outputsOf(model)[0]?.value as { messages: { content: string }[] };
    expect(read.messages.map((m) => m.content)).toEqual(['the secret plan']);
  });
});

/** The id a tool result names: `message_id`. */
const idIn = (output: { value: unknown } | undefined) => (output?.value as { message_id: string }).message_id;

describe('the board kit: writes', () => {
  it('asks for approval before a write by default: the turn stops, nothing is posted', async () => {
    const model = scripted([callTool('send_message', { content: 'hello' }, 'a')]);
    const p = await start(model);
    await p.person('alice').say('@assistant say hello');
    await p.settle();
    // The AI SDK stopped at the approval request: the model was not asked again, the tool never ran.
    expect(model.doStreamCalls).toHaveLength(1);
    expect(p.bot.messages().filter((m) => m.content === 'hello')).toEqual([]);
  });

  it("posts, edits and deletes the app's own message; editing another's message is refused", async () => {
    const ids: { theirs?: string } = {};
    const model = byPrompt([
      () => callTool('send_message', { content: 'hello' }, 'a'),
      (o) => callTool('edit_message', { message_id: idIn(o[0]), content: 'hello, edited' }, 'b'),
      (o) => callTool('delete_message', { message_id: idIn(o[0]) }, 'c'),
      () => callTool('edit_message', { message_id: ids.theirs, content: 'pwned' }, 'd'),
    ]);
    const p = await start(model, { needsApproval: false, maxWrites: 4 });
    const theirs = await p.person('bob').say('my own words');
    ids.theirs = theirs.id;
    const asked = await p.person('alice').say('@assistant say hello');
    await p.bot.nextAnswer({ replyTo: asked }).final();
    const outputs = outputsOf(model);
    expect(outputs.map((o) => o.type)).toEqual(['json', 'json', 'json', 'error-text']);
    expect(String(outputs[3]?.value)).toMatch(/forbidden/);
    const posted = (await p.messages()).find((m) => m.id === idIn(outputs[0]));
    // A reply to the asking message, edited, then deleted.
    expect(posted).toMatchObject({ reply_to: asked.id, content: null });
    expect(posted?.edited_at).not.toBeNull();
    expect(posted?.deleted_at).not.toBeNull();
    expect((await p.messages()).find((m) => m.id === theirs.id)?.content).toBe('my own words');
  });

  it("refuses the write past the turn's bound, and writes nothing for it", async () => {
    const post = (n: number) => () => callTool('send_message', { content: `note ${n}` }, `c${n}`);
    const model = byPrompt([post(1), post(2), post(3)]);
    const p = await start(model, { needsApproval: false, maxWrites: 2 });
    const asked = await p.person('alice').say('@assistant three notes');
    await p.bot.nextAnswer({ replyTo: asked }).final();
    const outputs = outputsOf(model);
    expect(outputs.map((o) => o.type)).toEqual(['json', 'json', 'error-text']);
    expect(String(outputs[2]?.value)).toContain('already made its 2 writes');
    expect(
      p.bot
        .messages()
        .map((m) => m.content)
        .filter((c) => c?.startsWith('note')),
    ).toEqual(['note 1', 'note 2']);
  });

  it('writes once when the turn is handled again after a crash, though the tool-call ids differ', async () => {
    // A real model's tool-call ids differ on every call: the keys must not come from them.
    const model = byPrompt([() => callTool('send_message', { content: 'posted once' }, randomUUID())]);
    const position = new HeldPositions();
    const options = { handlers: [assistantOf(model, { needsApproval: false })], plugins: [agents()], position };
    platform = await createTestPlatform(options);
    const next = anotherInstance(platform, options);
    try {
      position.held = true;
      const asked = await platform.person('alice').say('@assistant post it');
      await platform.bot.nextAnswer({ replyTo: asked }).final();
      await platform.bot.runtime.stop();
      // The next process resumes before the message: it handles the turn again, the model calls again.
      const handledAgain = position.handled(asked);
      await next.start();
      await handledAgain;
      expect(model.doStreamCalls).toHaveLength(4);
      const posted = (await platform.messages()).filter((m) => m.content === 'posted once');
      expect(posted).toHaveLength(1);
    } finally {
      await next.stop();
    }
  });
});
