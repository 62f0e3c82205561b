import { LIMITS } from '@boardbot/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, DEV_TOKEN, Harness, type Send } from './helpers/harness.js';

// Bad input on every endpoint with a body or parameters: each gets its envelope and code, none a 5xx,
// and the platform's state is the same afterwards.

let h: Harness;
let mine: { id: string };
let token: string;
let snapshot: string;

async function state(): Promise<string> {
  const general = await h.messages(h.seed.general.id);
  const random = await h.messages(h.seed.random.id);
  const commands = (await h.api('GET', '/app/commands')).json;
  const events = h.emu.platform.store.events.after(h.seed.devBot.id, 0, 1_000_000).length;
  const interactions = (await h.ctl('GET', '/interactions')).json;
  return JSON.stringify({ general, random, commands, events, interactions });
}

beforeAll(async () => {
  h = await Harness.start({ rateLimit: { requests: 100_000 } });
  await h.registerCommands([{ name: 'ping', description: 'Ping' }]);
  mine = await h.send(h.seed.general.id, { content: 'original' });
  ({ token } = await h.invoke({ board_id: h.seed.general.id, user_id: h.seed.alice.id, command: 'ping' }));
  snapshot = await state();
});
afterAll(async () => {
  expect(await state()).toBe(snapshot);
  await h.close();
});

const BODY_ENDPOINTS = () =>
  [
    ['POST', `/boards/${h.seed.general.id}/messages`, DEV_TOKEN],
    ['PATCH', `/boards/${h.seed.general.id}/messages/${mine.id}`, DEV_TOKEN],
    ['PUT', '/app/commands', DEV_TOKEN],
    ['POST', `/interactions/${token}`, null],
  ] as const;

function expectError(r: Answer, status: number, code: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.json.error.code).toBe(code);
  expect(typeof r.json.error.message).toBe('string');
}

describe('bodies', () => {
  it('malformed JSON is 400 invalid_json', async () => {
    for (const [method, path, t] of BODY_ENDPOINTS()) {
      for (const text of ['{', '{"content": }', 'nul', "{'a':1}", '{"__proto__": {"x": 1}}']) {
        const r = await h.api(method, path, t, { body: text, headers: { 'content-type': 'application/json' } });
        expectError(r, 400, 'invalid_json');
      }
    }
  });

  it('a body that is not JSON is 415 unsupported_media_type', async () => {
    for (const [method, path, t] of BODY_ENDPOINTS()) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
        const r = await h.api(method, path, t, { body: '{"content":"x"}', headers: { 'content-type': type } });
        expectError(r, 415, 'unsupported_media_type');
      }
    }
  });

  it('a body over 1 MiB is 413 payload_too_large', async () => {
    const big = JSON.stringify({ content: 'x'.repeat(1024 * 1024) });
    for (const [method, path, t] of BODY_ENDPOINTS()) {
      expectError(
        await h.api(method, path, t, { body: big, headers: { 'content-type': 'application/json' } }),
        413,
        'payload_too_large',
      );
    }
  });

  it('a missing body, or a body of the wrong shape, is 400 validation_failed', async () => {
    for (const [method, path, t] of BODY_ENDPOINTS()) {
      for (const send of [
        {},
        { body: 'null', headers: { 'content-type': 'application/json' } },
        { body: '"text"', headers: { 'content-type': 'application/json' } },
      ] as Send[]) {
        expectError(await h.api(method, path, t, send), 400, 'validation_failed');
      }
    }
  });
});

describe('message bodies (send, edit, answer)', () => {
  const tooMuchText = Array.from({ length: 2 }, () => ({ description: 'd'.repeat(3500) }));
  const cases: [string, unknown, string][] = [
    ['empty body', {}, '/'],
    ['empty content', { content: '' }, '/'],
    ['empty embeds', { embeds: [] }, '/'],
    ['content over 4000 characters', { content: 'x'.repeat(4001) }, '/content'],
    ['content of the wrong type', { content: 5 }, '/content'],
    ['unknown field', { content: 'x', reply_to: '00000000-0000-4000-8000-000000000001' }, '/reply_to'],
    ['11 embeds', { embeds: Array.from({ length: 11 }, () => ({ title: 't' })) }, '/embeds'],
    ['an empty embed', { embeds: [{}] }, '/embeds/0'],
    ['a javascript: URL', { embeds: [{ url: 'javascript:alert(1)' }] }, '/embeds/0/url'],
    ['an ftp URL', { embeds: [{ url: 'ftp://example.com/x' }] }, '/embeds/0/url'],
    ['a relative image URL', { embeds: [{ image: { url: '/a.png' } }] }, '/embeds/0/image/url'],
    ['a URL over 2048 characters', { embeds: [{ url: `https://e.com/${'a'.repeat(2048)}` }] }, '/embeds/0/url'],
    ['a color name', { embeds: [{ color: 'red' }] }, '/embeds/0/color'],
    ['a short color', { embeds: [{ color: '#fff' }] }, '/embeds/0/color'],
    ['a non-hex color', { embeds: [{ color: '#GGGGGG' }] }, '/embeds/0/color'],
    ['a title over 256', { embeds: [{ title: 't'.repeat(257) }] }, '/embeds/0/title'],
    [
      '26 fields',
      { embeds: [{ fields: Array.from({ length: 26 }, () => ({ name: 'n', value: 'v' })) }] },
      '/embeds/0/fields',
    ],
    [
      'a field value over 1024',
      { embeds: [{ fields: [{ name: 'n', value: 'v'.repeat(1025) }] }] },
      '/embeds/0/fields/0/value',
    ],
    ['an unknown embed key', { embeds: [{ title: 't', footer: 'f' }] }, '/embeds/0/footer'],
    ['embed text over 6000 in all', { embeds: tooMuchText }, '/embeds'],
  ];

  for (const [name, body, path] of cases) {
    it(`refuses ${name} with 400 validation_failed at ${path}`, async () => {
      const send = await h.api('POST', `/boards/${h.seed.general.id}/messages`, DEV_TOKEN, { body });
      expectError(send, 400, 'validation_failed');
      expect(send.json.error.details.map((d: { path: string }) => d.path)).toContain(path);
      const answer = await h.api('POST', `/interactions/${token}`, null, { body });
      expectError(answer, 400, 'validation_failed');
      expect(answer.json.error.details.map((d: { path: string }) => d.path)).toContain(path);
    });
  }

  it('refuses a bad replyTo: not a UUID, or a message that does not exist', async () => {
    for (const replyTo of ['nope', '00000000-0000-4000-8000-000000000000']) {
      const r = await h.api('POST', `/boards/${h.seed.general.id}/messages`, DEV_TOKEN, {
        body: { content: 'x', replyTo },
      });
      expectError(r, 400, 'validation_failed');
      expect(r.json.error.details[0].path).toBe('/replyTo');
    }
  });

  it('refuses bad edits', async () => {
    const path = `/boards/${h.seed.general.id}/messages/${mine.id}`;
    for (const body of [
      {},
      { content: 5 },
      { content: 'x'.repeat(4001) },
      { content: 'x', embeds: [] },
      { content: '' },
    ]) {
      expectError(await h.api('PATCH', path, DEV_TOKEN, { body }), 400, 'validation_failed');
    }
  });
});

describe('command sets', () => {
  const ok = { name: 'ok', description: 'Fine' };
  const option = (o: Record<string, unknown>) => ({ name: 'opt', description: 'An option', type: 'string', ...o });
  const cases: [string, unknown][] = [
    ['not an array', { commands: [ok] }],
    ['a name with capitals', [{ name: 'Roll', description: 'd' }]],
    ['a name with a space', [{ name: 'ro ll', description: 'd' }]],
    ['a name over 32 characters', [{ name: 'a'.repeat(33), description: 'd' }]],
    ['an empty description', [{ name: 'x', description: '' }]],
    ['a description over 100', [{ name: 'x', description: 'd'.repeat(101) }]],
    ['a missing description', [{ name: 'x' }]],
    ['an unknown command key', [{ ...ok, default_permission: true }]],
    ['duplicate names', [ok, ok]],
    ['101 commands', Array.from({ length: 101 }, (_, i) => ({ name: `c${i}`, description: 'd' }))],
    ['26 options', [{ ...ok, options: Array.from({ length: 26 }, (_, i) => option({ name: `o${i}` })) }]],
    ['an unknown option type', [{ ...ok, options: [option({ type: 'date' })] }]],
    ['duplicate option names', [{ ...ok, options: [option({}), option({})] }]],
    [
      'a required option after an optional one',
      [{ ...ok, options: [option({ name: 'a' }), option({ name: 'b', required: true })] }],
    ],
    ['min_value on a string option', [{ ...ok, options: [option({ min_value: 1 })] }]],
    ['min_length on an integer option', [{ ...ok, options: [option({ type: 'integer', min_length: 1 })] }]],
    ['min_value above max_value', [{ ...ok, options: [option({ type: 'integer', min_value: 5, max_value: 1 })] }]],
    [
      'a string choice on an integer option',
      [{ ...ok, options: [option({ type: 'integer', choices: [{ name: 'a', value: 'a' }] })] }],
    ],
    [
      'a fractional choice on an integer option',
      [{ ...ok, options: [option({ type: 'integer', choices: [{ name: 'a', value: 1.5 }] })] }],
    ],
    ['options on a non-subcommand', [{ ...ok, options: [option({ options: [option({})] })] }]],
    ['subcommands mixed with options', [{ ...ok, options: [option({ name: 'sub', type: 'subcommand' }), option({})] }]],
    [
      'a nested subcommand',
      [{ ...ok, options: [option({ name: 'sub', type: 'subcommand', options: [option({ type: 'subcommand' })] })] }],
    ],
  ];
  for (const [name, body] of cases) {
    it(`refuses ${name} with 400 validation_failed`, async () => {
      const r = await h.api('PUT', '/app/commands', DEV_TOKEN, { body });
      expectError(r, 400, 'validation_failed');
      expect(r.json.error.details.length).toBeGreaterThan(0);
    });
  }

  // Regression: a value nested thousands deep under an unknown option key made JSON.stringify
  // overflow when the set was stored, and the answer was 500 internal_error.
  it('refuses deeply nested unknown option keys with 400 validation_failed, not 500', async () => {
    for (const depth of [9, 5_000, 50_000]) {
      const text = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const body = `[{"name":"deep","description":"d","options":[{"name":"o","description":"d","type":"string","x":${text}}]}]`;
      const r = await h.api('PUT', '/app/commands', DEV_TOKEN, {
        body,
        headers: { 'content-type': 'application/json' },
      });
      expectError(r, 400, 'validation_failed');
      expect(r.json.error.details[0].path).toBe('/0/options/0/x');
    }
  });

  it('refuses more than 16 KiB of unknown option keys in one command with 400 validation_failed', async () => {
    const extra = { notes: 'n'.repeat(LIMITS.openOptionBytes) };
    const r = await h.api('PUT', '/app/commands', DEV_TOKEN, { body: [{ ...ok, options: [option(extra)] }] });
    expectError(r, 400, 'validation_failed');
    expect(r.json.error.details[0].path).toBe('/0/options');
  });
});

describe('parameters', () => {
  it('a malformed UUID in any path is 400 validation_failed', async () => {
    const b = h.seed.general.id;
    const calls: [string, string, Send?][] = [
      ['GET', '/boards/x'],
      ['GET', '/boards/123e4567-e89b-12d3-a456-42661417400'],
      ['GET', '/boards/not-a-uuid/members'],
      ['GET', '/boards/not-a-uuid/messages'],
      ['POST', '/boards/not-a-uuid/messages', { body: { content: 'x' } }],
      ['PATCH', `/boards/${b}/messages/not-a-uuid`, { body: { content: 'x' } }],
      ['DELETE', `/boards/${b}/messages/not-a-uuid`],
      ['DELETE', `/boards/zz/messages/${mine.id}`],
      ['GET', '/users/alice'],
    ];
    for (const [method, path, send] of calls) {
      const r = await h.api(method, path, DEV_TOKEN, send);
      expectError(r, 400, 'validation_failed');
      expect(r.json.error.details[0]).toMatchObject({
        path: expect.stringMatching(/^\/(boardId|messageId|userId)$/),
        message: 'Expected a UUID',
      });
    }
  });

  it('limit and before out of range, not integers, repeated or unknown are 400 validation_failed', async () => {
    const path = `/boards/${h.seed.general.id}/messages`;
    const queries = [
      ['limit=0', '/limit'],
      ['limit=101', '/limit'],
      ['limit=-1', '/limit'],
      ['limit=1.5', '/limit'],
      ['limit=ten', '/limit'],
      ['limit=', '/limit'],
      ['limit=1e2', '/limit'],
      ['limit=1&limit=2', '/limit'],
      ['limit=99999999999999999999', '/limit'],
      ['before=0', '/before'],
      ['before=-5', '/before'],
      ['before=2.5', '/before'],
      ['before=x', '/before'],
      ['after=3', '/after'],
    ];
    for (const [q, at] of queries) {
      const r = await h.api('GET', `${path}?${q}`);
      expectError(r, 400, 'validation_failed');
      expect([q, r.json.error.details[0].path]).toEqual([q, at]);
    }
    expect((await h.api('GET', `${path}?limit=100&before=1000000`)).status).toBe(200);
  });

  it('a URL that is not validly percent-encoded is 400 validation_failed, with the envelope', async () => {
    for (const path of [`/boards/%E0%A4%A`, `/boards/${h.seed.general.id}/messages?limit=%E0%A4%A`, '/%ZZ']) {
      const r = await h.api('GET', path);
      expectError(r, 400, 'validation_failed');
    }
    const control = await h.ctl('GET', '/boards/%E0%A4%A/members');
    expectError(control, 400, 'validation_failed');
    // The refusal does not quote the URL back: it may hold a credential.
    const answer = await h.api('POST', `/interactions/${token}%E0`, null, { body: { content: 'x' } });
    expectError(answer, 400, 'validation_failed');
    expect(answer.text).not.toContain(token);
  });

  it('an interaction token of any shape that matches nothing is 404 unknown_interaction', async () => {
    for (const t of ['x', '%20', 'a'.repeat(5000), `${token}x`]) {
      expectError(
        await h.api('POST', `/interactions/${t}`, null, { body: { content: 'x' } }),
        404,
        'unknown_interaction',
      );
    }
  });
});
