import { Command, type CommandContext } from '@boardbot/core';
import { until } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { useBotBehindProxy } from './support/bot-behind-proxy.js';

@Command({ name: 'whoami', description: 'Logs and answers' })
class WhoAmI {
  run(ctx: CommandContext) {
    // A careless author logging the whole interaction must not leak its token.
    ctx.log.info({ interaction: ctx.interaction }, 'handling whoami');
    return `You are ${ctx.user.display_name}`;
  }
}

describe('logging', () => {
  const behind = useBotBehindProxy({ handlers: [WhoAmI] });

  it('one correlation id follows an event from its log lines into its REST calls', async () => {
    const { platform, proxy, logs } = behind();
    const interaction = await platform.invoke(platform.alice, platform.general, 'whoami');
    const view = await platform.answers(interaction.id);
    expect(view.answers[0]?.content).toBe('You are Alice');
    const line = logs.lines().find((l) => l.msg === 'handling whoami');
    expect(line).toMatchObject({ interaction_id: interaction.id, event_id: expect.any(String) });
    const correlationId = line?.correlation_id;
    expect(correlationId).toEqual(expect.any(String));
    const answer = proxy.seen.find((r) => r.method === 'POST' && r.url.startsWith('/api/v1/interactions/'));
    expect(answer?.headers['x-request-id']).toBe(correlationId);
  });

  it('a handled event leaves one info line: handler, board, outcome and duration (issue 30)', async () => {
    const { platform, logs } = behind();
    const interaction = await platform.invoke(platform.bob, platform.general, 'whoami');
    await platform.answers(interaction.id);
    const handled = () => logs.lines().filter((l) => l.msg === 'handled' && l.interaction_id === interaction.id);
    await until(() => handled().length > 0, 'the handled line');
    expect(handled()).toEqual([
      expect.objectContaining({
        level: 30,
        handler: 'WhoAmI.run',
        board_id: platform.general.id,
        outcome: 'ok',
        duration_ms: expect.any(Number),
      }),
    ]);
  });

  it('never writes a token: neither the app token nor an interaction token', async () => {
    const { platform, proxy, logs } = behind();
    const text = logs.text();
    expect(text).not.toContain(platform.token);
    const answer = proxy.seen.find((r) => r.method === 'POST' && r.url.startsWith('/api/v1/interactions/'));
    const interactionToken = answer?.url.split('/').at(-1) ?? '';
    expect(interactionToken.length).toBeGreaterThan(30);
    expect(text).not.toContain(interactionToken);
    expect(text).toContain('[redacted]');
  });
});
