import { randomUUID } from 'node:crypto';
import { agents, commandTools, defineAgent } from '@boardbot/core/agents';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, scripted } from './mock-model.js';
import { Ban, banned, Coin } from './moderation-commands.js';
import { askingHandler } from './pin-agent.js';

// A turn resumed by an approver who is not the asker still runs its commands as the asker: a
// moderator's yes lends the command neither the moderator's role nor the moderator's cooldown.

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
  banned.length = 0;
});

/** An agent whose command tools need approval, approved by admins; its model calls `tool` once. */
async function start(tool: string, input: object) {
  const model = scripted([callTool(tool, input, randomUUID())]);
  const agent = defineAgent({
    name: 'helper',
    model,
    tools: (ctx) => commandTools(ctx, [Ban, Coin], { needsApproval: true }),
    approvers: { asker: false, roles: ['admin'] },
  });
  platform = await createTestPlatform({
    handlers: [askingHandler(agent), Ban, Coin],
    plugins: [agents(), agent.plugin],
  });
  return platform;
}

/** Mia (a member) asks; Ada (an admin) approves; the resumed turn's answer. */
async function approvedByAdmin(p: TestPlatform): Promise<string> {
  const question = await p.person('mia').say('@helper do it');
  const request = await p.bot.nextMessage({ replyTo: question, content: /Approval needed/ });
  await p.settle();
  const yes = await p.person('ada', { role: 'admin' }).reply(request, 'yes');
  return (await p.bot.nextAnswer({ replyTo: yes }).final()).text;
}

describe('a resumed turn runs its tools as the asking person', () => {
  it("refuses a moderator command to a member though an admin approved it: the asker's role is checked", async () => {
    const p = await start('ban', { who: 'bob' });
    const answer = await approvedByAdmin(p);
    expect(banned).toEqual([]);
    expect(answer).toContain('This needs the admin role on this board (you are a member)');
  });

  it('charges the cooldown to the asker, not to the approver', async () => {
    const p = await start('coin', {});
    const answer = await approvedByAdmin(p);
    expect(answer).toBe('done: "heads for mia"');
    expect((await p.person('ada', { role: 'admin' }).invoke('coin')).content).toBe('heads for ada');
    expect((await p.person('mia').invoke('coin')).content).toMatch(/^Slow down: \/coin/);
  });
});
