import type { Message } from '@boardbot/protocol';
import { CapturedLogs, describeFilter, describeMessage, matchesFilter, parseCommand } from '@boardbot/testing';
import { describe, expect, it } from 'vitest';

const message = (over: Partial<Message> = {}): Message => ({
  id: '11111111-1111-4111-8111-111111111111',
  board_id: 'b0000000-0000-4000-8000-000000000000',
  author: 'a0000000-0000-4000-8000-000000000000',
  kind: 'default',
  content: 'You rolled 4',
  media: null,
  embeds: null,
  webhook_name: null,
  reply_to: null,
  seq: 1,
  created_at: '2026-11-21T10:00:00.000Z',
  edited_at: null,
  deleted_at: null,
  interaction: null,
  ...over,
});
const names = (id: string) => (id === 'b0000000-0000-4000-8000-000000000000' ? 'general' : undefined);

describe('message filters', () => {
  it('match every given field and nothing else', () => {
    const m = message({ reply_to: '22222222-2222-4222-8222-222222222222' });
    expect(matchesFilter(m, {}, names)).toBe(true);
    expect(
      matchesFilter(m, { board: 'general', content: /rolled \d/, replyTo: { id: m.reply_to as string } }, names),
    ).toBe(true);
    expect(matchesFilter(m, { board: 'random' }, names)).toBe(false);
    expect(matchesFilter(m, { content: 'rolled 5' }, names)).toBe(false);
    expect(matchesFilter(m, { interaction: 'x' }, names)).toBe(false);
    expect(matchesFilter(m, { where: (x) => x.seq > 1 }, names)).toBe(false);
  });

  it('are described in words for failure messages', () => {
    expect(describeFilter({})).toBe('');
    expect(describeFilter({ replyTo: '22222222-2222', content: /rolled/, board: 'general' })).toBe(
      ' (replying to 22222222…, matching /rolled/, on general)',
    );
  });

  it('describe messages with their board, embeds and what they answer', () => {
    const answer = message({
      content: null,
      embeds: [{ title: 'Lunch?', fields: [{ name: 'Pizza', value: '2' }] }],
      interaction: { id: '33333333-3333-4333-8333-333333333333', name: 'poll', user_id: 'u' },
    });
    expect(describeMessage(answer, names)).toBe('[embed "Lunch?", 1 fields] on general (answer to /poll)');
    expect(describeMessage(message({ deleted_at: '2026-11-21T10:00:01.000Z' }), names)).toBe(
      '[deleted 11111111…] on general',
    );
  });
});

describe('command strings', () => {
  it('read as a person types them', () => {
    expect(parseCommand('roll')).toEqual({ name: 'roll' });
    expect(parseCommand(' /poll  create ')).toEqual({ name: 'poll', subcommand: 'create' });
    expect(() => parseCommand('')).toThrow(/not a command/);
    expect(() => parseCommand('a b c')).toThrow(/optionally followed by one subcommand/);
  });
});

describe('captured logs', () => {
  it('keep parsed lines, find them, and print them shortly', () => {
    const logs = new CapturedLogs('info');
    logs.logger.debug('not kept');
    logs.logger.info({ handler: 'Roll.run' }, 'handled');
    logs.logger.child({ command: 'roll' }).error({ err: new TypeError('boom') }, 'handler failed');
    expect(logs.lines.map((l) => l.level)).toEqual(['info', 'error']);
    expect(logs.find({ msg: /fail/ })).toHaveLength(1);
    expect(logs.problems().map((l) => l.msg)).toEqual(['handler failed']);
    expect(logs.text({ atLeast: 'warn' })).toBe('ERROR handler failed (command=roll) — TypeError: boom');
  });

  it('redact tokens wherever a handler puts them', () => {
    const logs = new CapturedLogs();
    logs.logger.info(
      { token: 'secret-1', interaction: { token: 'secret-2' }, headers: { authorization: 'x' } },
      'oops',
    );
    expect(JSON.stringify(logs.lines)).not.toMatch(/secret-1|secret-2|"x"/);
  });
});
