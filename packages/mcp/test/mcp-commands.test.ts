import { Command, type CommandContext, Option, RequireRole } from '@boardbot/core';
import { IsInt, Max, Min } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { createBoardMcpServer } from '../src/index.js';
import { agent, callText, useBotCommands, useTestBed } from './support/agent.js';

// docs/mcp.md, "Commands as tools": the bot's commands offered to an agent (the SDK's client over
// HTTP) by a server given core's openBotCommands, on a real emulator: run as the configured person,
// their answers the tools' results, their refusals the tools' errors.

class RollOptions {
  @Option({ description: 'Sides on the die' }) @IsInt() @Min(2) @Max(100) sides = 6;
}

@Command({ name: 'roll', description: 'Roll a die', options: RollOptions })
class Roll {
  static runs = 0;
  // The highest face, so the answer is known.
  run(ctx: CommandContext, options: RollOptions) {
    Roll.runs++;
    return `${ctx.user.username} rolled ${options.sides} on a d${options.sides}`;
  }
}

class BanOptions {
  @Option({ description: 'Who to ban', type: 'user' }) who!: string;
}

@Command({ name: 'ban', description: 'Ban a person (moderators)', options: BanOptions })
@RequireRole('admin')
class Ban {
  static banned: string[] = [];
  run(ctx: CommandContext, options: BanOptions) {
    Ban.banned.push(`${options.who} by ${ctx.user.username}`);
    return 'banned';
  }
}

class NoteOptions {
  @Option({ description: 'The note' }) text!: string;
}

@Command({ name: 'note', description: 'Posts a note on the board', options: NoteOptions })
class Note {
  // A command that writes: its writes take keys of the call.
  async run(ctx: CommandContext, options: NoteOptions) {
    await ctx.send(`note: ${options.text}`);
    return 'noted';
  }
}

const bed = useTestBed();
const bot = useBotCommands(bed, [Roll, Ban, Note]);

/** An agent of a server with the bot's commands, writes allowed unless said, as `as` if given. */
const commandAgent = (as?: string, writes = true) =>
  agent({ rest: bed.rest, writes, commands: bot.commands, ...(as && { as }) });

describe('commands as tools', () => {
  it("lists each command with its options' schema, and runs one as the configured person: its answer is the result", async () => {
    const { general, alice } = bed.emu.seed;
    const client = await commandAgent(alice.id);
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name).filter((n) => n.startsWith('command_'))).toEqual([
      'command_roll',
      'command_ban',
      'command_note',
    ]);
    const roll = tools.find((t) => t.name === 'command_roll');
    expect(roll?.inputSchema.properties).toMatchObject({
      board_id: { type: 'string', format: 'uuid' },
      sides: { type: 'integer', description: 'Sides on the die', minimum: 2, maximum: 100 },
      idempotency_key: { type: 'string' },
    });
    expect(roll?.inputSchema.required).toEqual(['board_id']);
    // The bot behind the tools never reconciled its commands with the platform (commandSync: 'off').
    expect(await bed.rest.listCommands()).toEqual([]);
    expect(await callText(client, 'command_roll', { board_id: general.id, sides: 20 })).toEqual({
      text: 'alice rolled 20 on a d20',
      isError: false,
    });
    await client.close();
  });

  it("gives a command's invalid option back as the tool's error, the handler not run; called again right, it runs", async () => {
    const client = await commandAgent(bed.emu.seed.alice.id);
    const before = Roll.runs;
    const bad = await callText(client, 'command_roll', { board_id: bed.emu.seed.general.id, sides: 1000 });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^BOARDBOT_TOOL_REFUSED: \/roll was not run/);
    expect(bad.text).toMatch(/sides/);
    expect(Roll.runs).toBe(before);
    const good = await callText(client, 'command_roll', { board_id: bed.emu.seed.general.id, sides: 12 });
    expect(good).toEqual({ text: 'alice rolled 12 on a d12', isError: false });
    await client.close();
  });

  it('refuses a guarded command without a configured person, runs the others as the app, and checks the role of the one configured', async () => {
    const { general, alice, bob } = bed.emu.seed;
    const nobody = await commandAgent();
    const refused = await callText(nobody, 'command_ban', { board_id: general.id, who: bob.id });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(
      /^BOARDBOT_COMMAND_NEEDS_PERSON: \/ban was refused: it runs behind RequireRole\(admin\)/,
    );
    expect(Ban.banned).toEqual([]);
    const app = await bed.rest.getApp();
    const asApp = await callText(nobody, 'command_roll', { board_id: general.id, sides: 3 });
    expect(asApp).toEqual({
      text: `${(await bed.rest.getUser(app.bot_user_id)).username} rolled 3 on a d3`,
      isError: false,
    });
    await nobody.close();

    const member = await commandAgent(bob.id);
    const denied = await callText(member, 'command_ban', { board_id: general.id, who: alice.id });
    expect(denied.isError).toBe(true);
    expect(denied.text).toMatch(/^BOARDBOT_TOOL_REFUSED: \/ban was not run/);
    await member.close();
    const owner = await commandAgent(alice.id);
    expect(await callText(owner, 'command_ban', { board_id: general.id, who: bob.id })).toEqual({
      text: 'banned',
      isError: false,
    });
    expect(Ban.banned).toEqual([`${bob.id} by alice`]);
    await owner.close();
  });

  it('refuses to run a command as a person who is not a member of the board', async () => {
    const carol = await bed.emu.control.createUser({ username: 'carol', display_name: 'Carol' });
    const client = await commandAgent(carol.id);
    const before = Roll.runs;
    const refused = await callText(client, 'command_roll', { board_id: bed.emu.seed.general.id });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(
      new RegExp(`^BOARDBOT_NOT_BOARD_MEMBER: /roll was refused: user ${carol.id} is not a member of board`),
    );
    expect(Roll.runs).toBe(before);
    await client.close();
  });

  it("writes once per idempotency key, a call made again replaying the command's writes; without a key each call writes", async () => {
    const { random, bob } = bed.emu.seed;
    const client = await commandAgent(bob.id);
    const posted = async (text: string) =>
      (await bed.emu.allMessages(random.id)).filter((m) => m.content === `note: ${text}`).length;
    const keyed = { board_id: random.id, text: 'ship 1.4', idempotency_key: 'note-ship-1.4' };
    expect(await callText(client, 'command_note', keyed)).toEqual({ text: 'noted', isError: false });
    expect(await callText(client, 'command_note', keyed)).toEqual({ text: 'noted', isError: false });
    expect(await posted('ship 1.4')).toBe(1);
    await callText(client, 'command_note', { board_id: random.id, text: 'lunch' });
    await callText(client, 'command_note', { board_id: random.id, text: 'lunch' });
    expect(await posted('lunch')).toBe(2);
    await client.close();
  });

  it('offers no command tool when read-only, and refuses a call of one, saying how to allow writes', async () => {
    const client = await commandAgent(bed.emu.seed.alice.id, false);
    expect((await client.listTools()).tools.filter((t) => t.name.startsWith('command_'))).toEqual([]);
    const before = Roll.runs;
    const refused = await callText(client, 'command_roll', { board_id: bed.emu.seed.general.id });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/read-only: start it with writes allowed \(boardbot mcp --writes\)/);
    expect(Roll.runs).toBe(before);
    await client.close();
  });

  it('takes as a user id only, saying so', () => {
    expect(() => createBoardMcpServer({ rest: bed.rest, writes: true, commands: bot.commands, as: 'alice' })).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_MCP_INVALID_OPTION',
        message: expect.stringMatching(/as must be the user id/),
      }),
    );
  });
});
