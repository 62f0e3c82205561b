import { randomUUID } from 'node:crypto';
import { Command, type CommandContext, Option, RequireRole } from '@boardbot/core';
import { boardApproval } from '@boardbot/core/agents';
import { IsInt, Max, Min } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { agent, callText, useBotCommands, useTestBed } from './support/agent.js';

// docs/mcp.md, "Approvals": a command call that no approver could let run is refused at once, before
// any request is posted (the SDK's client over HTTP, core's openBotCommands, a real emulator).

class DieOptions {
  @Option({ description: 'Sides on the die' }) @IsInt() @Min(2) @Max(100) sides = 6;
}

@Command({ name: 'die', description: 'Roll a die', options: DieOptions })
class Die {
  static runs = 0;
  run(_ctx: CommandContext, options: DieOptions) {
    Die.runs++;
    return `rolled ${options.sides}`;
  }
}

@Command({ name: 'lock', description: 'Locks the board (moderators)' })
@RequireRole('admin')
class Lock {
  static runs = 0;
  run() {
    Lock.runs++;
    return 'locked';
  }
}

const bed = useTestBed();
const bot = useBotCommands(bed, [Die, Lock]);

/** An agent whose writes wait for an admin's approval (not waiting for an answer), as `as` if given. */
const approvedAgent = (as?: string) =>
  agent({
    rest: bed.rest,
    writes: true,
    commands: bot.commands,
    ...(as && { as }),
    approval: boardApproval(bed.rest, { approvers: { roles: ['admin'] }, waitMs: 0 }),
  });

/** The approval requests on a board for a tool, pending or decided (both name it). */
const requests = async (boardId: string, tool: string) =>
  (await bed.emu.allMessages(boardId)).filter((m) => m.content?.includes(`\`${tool}\``));

describe('command calls refused before any approval is asked', () => {
  it('asks for the approval of a call that could run: the request is on the board', async () => {
    const client = await approvedAgent(bed.emu.seed.bob.id);
    const pending = await callText(client, 'command_die', { board_id: bed.emu.seed.random.id, sides: 7 });
    expect(pending.text).toMatch(/command_die waits for a person's approval/);
    expect(await requests(bed.emu.seed.random.id, 'command_die')).toHaveLength(1);
    expect(Die.runs).toBe(0);
    await client.close();
  });

  it('refuses a guarded command without a person at once, posting no request', async () => {
    const { general } = bed.emu.seed;
    const client = await approvedAgent();
    const refused = await callText(client, 'command_lock', { board_id: general.id });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^BOARDBOT_COMMAND_NEEDS_PERSON: \/lock was refused/);
    expect(await requests(general.id, 'command_lock')).toEqual([]);
    expect(Lock.runs).toBe(0);
    await client.close();
  });

  it('refuses a person off the board, and an unknown board, at once, posting no request', async () => {
    const { general } = bed.emu.seed;
    const carol = await bed.emu.control.createUser({ username: 'carol', display_name: 'Carol' });
    const outsider = await approvedAgent(carol.id);
    const refused = await callText(outsider, 'command_die', { board_id: general.id });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(new RegExp(`^BOARDBOT_NOT_BOARD_MEMBER: /die was refused: user ${carol.id}`));
    await outsider.close();

    const member = await approvedAgent(bed.emu.seed.bob.id);
    const nowhere = randomUUID();
    const unknown = await callText(member, 'command_die', { board_id: nowhere });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(new RegExp(`^BOARDBOT_NOT_BOARD_MEMBER: .*${nowhere}`));
    expect(await requests(general.id, 'command_die')).toEqual([]);
    expect(Die.runs).toBe(0);
    await member.close();
  });

  it("refuses a command's invalid options at once, in the command's words, posting no request", async () => {
    const { general } = bed.emu.seed;
    const client = await approvedAgent(bed.emu.seed.bob.id);
    const refused = await callText(client, 'command_die', { board_id: general.id, sides: 1000 });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^BOARDBOT_TOOL_REFUSED: \/die was not run/);
    expect(refused.text).toMatch(/Sorry, \/die cannot run:\n- sides: expected at most 100/);
    expect(await requests(general.id, 'command_die')).toEqual([]);
    expect(Die.runs).toBe(0);
    await client.close();
  });
});
