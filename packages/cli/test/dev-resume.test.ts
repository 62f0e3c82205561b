import type { Message } from '@boardbot/protocol';
import { eventuallyValue } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { Control, POLL } from './support/control.js';
import { runDevForTest } from './support/dev-session.js';
import { fixtureProjectForTest, pingSource } from './support/fixture-project.js';
import { testIo } from './support/test-io.js';

// A listener that takes a moment per message, so the old bot still has a backlog when the rebuild
// stops it and messages keep arriving after its gateway closed.
const ECHO = `import { OnMessage, type MessageContext } from '@boardbot/core';

export class Echo {
  @OnMessage(/^m /)
  async echo(ctx: MessageContext) {
    await new Promise((r) => setTimeout(r, 20));
    return \`echo \${ctx.message.content}\`;
  }
}
`;

describe('boardbot dev across a rebuild', () => {
  it('answers every message posted while the bot is rebuilt and restarted, once each, in order', async () => {
    const project = fixtureProjectForTest('dev-resume');
    project.write('src/echo.ts', ECHO);
    project.write(
      'src/bot.ts',
      "import { Echo } from './echo.js';\nimport { Ping } from './ping.js';\n\nexport const handlers = [Ping, Echo];\n",
    );
    const session = await runDevForTest({ port: 0, logLevel: 'warn' }, testIo(project.dir));
    const control = new Control(session.urls.controlUrl, session.emulator.adminKey);
    // Up once it answers: its commands are registered before its gateway connects, and a first start
    // (no resume point yet) begins at the live stream, so a message posted before that is not its.
    await eventuallyValue(
      () => control.invoke('ping'),
      (view) => view.answers.length > 0,
      POLL,
    );
    const { alice, general } = await control.seedIds();

    // People post before the change, then from the moment the new build is ready (the old bot is about
    // to be stopped with a backlog) until well after the new bot is up. The posts are paced and
    // capped so the volume does not grow with how long the machine takes to rebuild.
    const posted: Message[] = [];
    const post = async () => {
      posted.push(await control.client.postMessage(general, { user_id: alice, content: `m ${posted.length}` }));
    };
    for (let i = 0; i < 20; i++) await post();
    // The saved file's JavaScript is written at once (the type check follows beside).
    const rebuilt = new Promise<void>((resolve) => session.on('fast-emit', () => resolve()));
    let restarted = false;
    const restart = new Promise<void>((resolve) =>
      session.on('bot-start', ({ count }) => {
        if (count === 2) {
          restarted = true;
          resolve();
        }
      }),
    );
    project.write('src/ping.ts', pingSource('v2'));
    await rebuilt;
    let inWindow = 0;
    for (; !restarted && inWindow < 500; inWindow++) {
      await post();
      await new Promise((r) => setTimeout(r, 5));
    }
    await restart;
    // The point of the test: messages were posted between the new build and the new bot's start, when
    // the old bot was being stopped and no bot was reading the gateway.
    expect(inWindow).toBeGreaterThan(0);
    for (let i = 0; i < 20; i++) await post();

    const botUser = (await control.client.apps()).find((a) => a.name === 'dev-bot')?.bot_user_id;
    const ids = new Set(posted.map((m) => m.id));
    const echoes = async () =>
      (await control.allMessages(general)).filter((m) => m.author === botUser && ids.has(m.reply_to ?? ''));
    await eventuallyValue(echoes, (found) => found.length >= posted.length, { ...POLL, timeoutMs: 60_000 });
    const found = await echoes();
    expect(found.map((m) => m.reply_to)).toEqual(posted.map((m) => m.id));
    expect(found.map((m) => m.content)).toEqual(posted.map((m) => `echo ${m.content}`));
  }, 150_000);
});
