// A bot test under node's own test runner (`node --test`), on the built packages: no vitest, no
// TypeScript. Decorators are plain functions, so they are applied by hand here; in TypeScript they
// are written with `@`.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Command, Option } from '@boardbot/core';
import { createTestPlatform } from '@boardbot/testing';

class EchoOptions {}
Option({ description: 'What to echo', type: 'string' })(EchoOptions.prototype, 'text');

class Echo {
  run(_ctx, { text }) {
    return `echo: ${text}`;
  }
}
Command({ name: 'echo', description: 'Echoes the text', options: EchoOptions })(Echo);

let platform;
before(async () => {
  platform = await createTestPlatform({ handlers: [Echo] });
});
after(() => platform.close());

test('the bot echoes', async () => {
  const answer = await platform.person('alice').invoke('echo', { text: 'hi' });
  assert.equal(answer.content, 'echo: hi');
});

test('a missing option is refused by the platform', async () => {
  await assert.rejects(platform.person('bob').invoke('echo'), { code: 'BOARDBOT_TEST_INVOCATION_REJECTED' });
});
