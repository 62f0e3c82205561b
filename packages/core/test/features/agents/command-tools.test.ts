import { Command, type CommandContext, Option } from '@boardbot/core';
import { agents, commandTools } from '@boardbot/core/agents';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { IsInt, Max, Min } from 'class-validator';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assistantOf as base,
  callTool,
  lastToolOutput,
  type MockModel,
  type Prompt,
  say,
  scripted,
} from './mock-model.js';
import { Ban, banned, Coin } from './moderation-commands.js';

// Commands as the model's tools, offline: the AI SDK's own mock model scripts the tool calls, the bot
// runs on a real emulator over loopback.

class RollOptions {
  @Option({ description: 'Sides on the die' }) @IsInt() @Min(2) @Max(100) sides = 6;
}

@Command({ name: 'roll', description: 'Roll a die', options: RollOptions })
class Roll {
  // The highest face, so the answer is known.
  run(ctx: CommandContext, options: RollOptions) {
    return `${ctx.user.username} rolled ${options.sides} on a d${options.sides}`;
  }
}

@Command({ name: 'note', description: 'Posts a note on the board' })
class Note {
  // A command that writes on its own: each of its runs takes the run's next idempotency key.
  async run(ctx: CommandContext) {
    await ctx.rest.sendMessage(ctx.boardId, { content: `note by ${ctx.user.username}` });
    return 'noted';
  }
}

@Command({ name: 'broken', description: 'Always fails' })
class Broken {
  run(): string {
    throw new Error('disk on fire');
  }
}

@Command({ name: 'story', description: 'Tells a story, streamed' })
class Story {
  async run(ctx: CommandContext) {
    async function* pieces() {
      yield 'once ';
      yield 'upon a time';
    }
    await ctx.stream(pieces());
  }
}

const commands = [Roll, Ban, Coin, Note, Broken, Story];

const assistantOf = (model: MockModel) => base(model, (ctx) => commandTools(ctx, commands), 4);

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
  banned.length = 0;
});

async function start(model: MockModel): Promise<TestPlatform> {
  platform = await createTestPlatform({ handlers: [assistantOf(model), ...commands], plugins: [agents()] });
  return platform;
}

describe('commands as tools', () => {
  it("gives the model the command's registered options as the tool's input schema", async () => {
    const model = scripted([say('ok')]);
    const p = await start(model);
    await p.bot.nextAnswer({ replyTo: await p.person('alice').say('@assistant hi') }).final();
    const roll = model.doStreamCalls[0]?.tools?.find((t) => t.name === 'roll') as { inputSchema?: unknown };
    expect(roll.inputSchema).toMatchObject({
      type: 'object',
      properties: { sides: { type: 'integer', minimum: 2, maximum: 100 } },
    });
  });

  it('hands a bad option back as the tool error; the model calls again right and answers with the result', async () => {
    const model = scripted([callTool('roll', { sides: 1 }, 'c1'), callTool('roll', { sides: 20 }, 'c2')]);
    const p = await start(model);
    const asked = await p.person('alice').say('@assistant roll a d20');
    const answer = await p.bot.nextAnswer({ replyTo: asked }).final();
    // The first call's error is what a person typing `/roll sides:1` would have been told.
    const first = lastToolOutput(model.doStreamCalls[1]?.prompt as Prompt);
    expect(first.type).toBe('error-text');
    expect(String(first.value)).toContain('/roll was not run as the asking person');
    expect(String(first.value)).toContain('sides: expected at least 2');
    expect(answer.text).toBe('done: "alice rolled 20 on a d20"');
    // What the command answered went to the model only: the bot posted the assistant's answer alone.
    expect(p.bot.messages().map((m) => m.content)).toEqual([answer.text]);
  });

  it('refuses a moderator command to a person without the role, as that person: the handler never runs', async () => {
    const model = scripted([callTool('ban', { who: 'bob' }, 'c1')]);
    const p = await start(model);
    p.person('bob');
    const asked = await p.person('mia', { role: 'member' }).say('@assistant ban bob');
    const answer = await p.bot.nextAnswer({ replyTo: asked }).final();
    expect(banned).toEqual([]);
    expect(answer.text).toContain('/ban was not run as the asking person');
    expect(answer.text).toContain('This needs the admin role on this board (you are a member).');
  });

  it('runs it for a person with the role', async () => {
    const model = scripted([callTool('ban', { who: 'bob' }, 'c1')]);
    const p = await start(model);
    const bob = p.person('bob');
    await bob.say('hello');
    const asked = await p.person('ada', { role: 'admin' }).say('@assistant ban bob');
    const answer = await p.bot.nextAnswer({ replyTo: asked }).final();
    expect(answer.text).toBe('done: "banned"');
    expect(banned).toEqual([`${(await bob.profile()).id} by ada`]);
  });

  it("counts the command's cooldown for the asking person: a second call in the window is refused", async () => {
    const model = scripted([callTool('coin', {}, 'c1'), callTool('coin', {}, 'c2')]);
    const p = await start(model);
    const asked = await p.person('alice').say('@assistant toss twice');
    const answer = await p.bot.nextAnswer({ replyTo: asked }).final();
    expect(lastToolOutput(model.doStreamCalls[1]?.prompt as Prompt).value).toBe('heads for alice');
    expect(answer.text).toContain('/coin was not run as the asking person');
    expect(answer.text).toMatch(/wait|again/i);
  });

  it("gives a failing command's apology as the tool error, reason failed", async () => {
    const model = scripted([callTool('broken', {}, 'c1')]);
    const p = await start(model);
    const asked = await p.person('alice').say('@assistant break it');
    const answer = await p.bot.nextAnswer({ replyTo: asked }).final();
    expect(answer.text).toContain('/broken was not run as the asking person');
    expect(p.bot.messages().map((m) => m.content)).toEqual([answer.text]);
  });

  it("gives each call of a turn its own write keys: two calls write twice, though the mock's ids repeat", async () => {
    const model = scripted([callTool('note', {}, 'same'), callTool('note', {}, 'same')]);
    const p = await start(model);
    const asked = await p.person('alice').say('@assistant two notes');
    await p.bot.nextAnswer({ replyTo: asked }).final();
    expect(p.bot.messages().filter((m) => m.content === 'note by alice')).toHaveLength(2);
  });

  it("keeps a command's streamed answer for the model, whole, without posting it", async () => {
    const model = scripted([callTool('story', {}, 'c1')]);
    const p = await start(model);
    const asked = await p.person('alice').say('@assistant a story');
    const answer = await p.bot.nextAnswer({ replyTo: asked }).final();
    expect(answer.text).toBe('done: "once upon a time"');
    expect(p.bot.messages().map((m) => m.content)).toEqual([answer.text]);
  });
});
