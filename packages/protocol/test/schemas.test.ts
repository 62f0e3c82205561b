import {
  App,
  Board,
  BoardList,
  Command,
  CommandDefinition,
  CommandList,
  checkerFor,
  EditMessageBody,
  ErrorEnvelope,
  GATEWAY_EVENT_SCHEMAS,
  Interaction,
  InteractionResponseBody,
  ListMessagesQuery,
  Member,
  MemberList,
  Message,
  MessageList,
  ReplaceCommandsBody,
  SendMessageBody,
  UserProfile,
} from '@boardbot/protocol';
import type { TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import * as s from './samples.js';

const check = (schema: TSchema, value: unknown) => checkerFor(schema).check(value);
const without = <T extends object>(o: T, key: keyof T) => {
  const copy = { ...o };
  delete copy[key];
  return copy;
};
const pathsOf = (schema: TSchema, value: unknown) => {
  const r = check(schema, value);
  return r.ok ? [] : r.issues.map((i) => i.path);
};

describe('record schemas', () => {
  const records: [string, TSchema, Record<string, unknown>, string, string][] = [
    // name, schema, valid sample, a required field, a field that must be a string/uuid
    ['Board', Board, s.board, 'name', 'id'],
    ['UserProfile', UserProfile, s.user, 'username', 'id'],
    ['Member', Member, s.member, 'role', 'joined_at'],
    ['App', App, s.app, 'bot_user_id', 'id'],
    ['Message', Message, s.message, 'seq', 'board_id'],
    ['Command', Command, s.command, 'options', 'id'],
    ['Interaction', Interaction, s.interaction, 'token', 'board_id'],
  ];

  it.each(records)('%s accepts a valid sample', (_n, schema, sample) => {
    expect(check(schema, sample)).toEqual({ ok: true, value: sample });
  });

  it.each(records)('%s rejects a missing required field, naming it', (_n, schema, sample, required) => {
    const r = check(schema, without(sample, required));
    expect(r.ok).toBe(false);
    expect(pathsOf(schema, without(sample, required))).toContain(`/${required}`);
  });

  it.each(records)('%s rejects a wrong type', (_n, schema, sample, _r, field) => {
    expect(pathsOf(schema, { ...sample, [field]: 42 })).toContain(`/${field}`);
  });

  it.each(records)('%s keeps unknown fields (tolerant reader)', (_n, schema, sample) => {
    expect(check(schema, { ...sample, added_later: true }).ok).toBe(true);
  });

  it('rejects a bad UUID in a record', () => {
    expect(pathsOf(Message, { ...s.message, id: 'not-a-uuid' })).toContain('/id');
    expect(pathsOf(Board, { ...s.board, id: '0196a8f0-0000-7000-8000-00000000000' })).toContain('/id');
  });

  it('rejects a time that is not RFC 3339', () => {
    expect(pathsOf(Board, { ...s.board, created_at: 'yesterday' })).toContain('/created_at');
  });

  it('accepts a tombstone and an unknown message kind', () => {
    const tomb = { ...s.message, content: null, deleted_at: '2026-11-21T10:01:00.000Z' };
    expect(check(Message, tomb).ok).toBe(true);
    expect(check(Message, { ...s.message, kind: 'sticker' }).ok).toBe(true);
  });

  it('rejects a member role outside the contract', () => {
    expect(pathsOf(Member, { ...s.member, role: 'guest' })).toContain('/role');
  });
});

describe('request schemas', () => {
  it('accepts a send body with content, embeds and replyTo', () => {
    const body = {
      content: 'hi',
      replyTo: s.ids.message,
      embeds: [
        {
          title: 't',
          color: '#00ff88',
          url: 'https://x.test/a',
          image: { url: 'http://x.test/i.png' },
          fields: [{ name: 'a', value: 'b', inline: true }],
        },
      ],
    };
    expect(check(SendMessageBody, body).ok).toBe(true);
  });

  it('rejects over-long content', () => {
    expect(pathsOf(SendMessageBody, { content: 'x'.repeat(4001) })).toEqual(['/content']);
    expect(check(SendMessageBody, { content: 'x'.repeat(4000) }).ok).toBe(true);
  });

  it('rejects more than 10 embeds', () => {
    expect(pathsOf(SendMessageBody, { embeds: Array.from({ length: 11 }, () => ({ title: 't' })) })).toContain(
      '/embeds',
    );
  });

  it('rejects bad embed URLs and colours', () => {
    expect(pathsOf(SendMessageBody, { embeds: [{ url: 'javascript:alert(1)' }] })).toContain('/embeds/0/url');
    expect(pathsOf(SendMessageBody, { embeds: [{ image: { url: 'ftp://x.test/i' } }] })).toContain(
      '/embeds/0/image/url',
    );
    expect(pathsOf(SendMessageBody, { embeds: [{ color: 'red' }] })).toContain('/embeds/0/color');
    expect(pathsOf(SendMessageBody, { embeds: [{ color: '#12345' }] })).toContain('/embeds/0/color');
  });

  it('rejects a bad replyTo UUID and unknown fields such as reply_to', () => {
    expect(pathsOf(SendMessageBody, { content: 'a', replyTo: '42' })).toContain('/replyTo');
    expect(check(SendMessageBody, { content: 'a', reply_to: s.ids.message }).ok).toBe(false);
  });

  it('requires content, as a string, on edit', () => {
    expect(check(EditMessageBody, { content: 'new' }).ok).toBe(true);
    expect(pathsOf(EditMessageBody, {})).toContain('/content');
    expect(pathsOf(EditMessageBody, { content: 5 })).toContain('/content');
  });

  it('shapes interaction answers like messages without replyTo', () => {
    expect(check(InteractionResponseBody, { content: 'ok' }).ok).toBe(true);
    expect(check(InteractionResponseBody, { content: 'ok', replyTo: s.ids.message }).ok).toBe(false);
  });

  it('bounds the list query', () => {
    expect(check(ListMessagesQuery, { before: 1, limit: 100 }).ok).toBe(true);
    expect(pathsOf(ListMessagesQuery, { limit: 0 })).toContain('/limit');
    expect(pathsOf(ListMessagesQuery, { limit: 101 })).toContain('/limit');
    expect(pathsOf(ListMessagesQuery, { limit: 2.5 })).toContain('/limit');
    expect(pathsOf(ListMessagesQuery, { before: 0 })).toContain('/before');
  });

  it('checks command definitions: names, descriptions, option types, counts', () => {
    const ok = { name: 'roll', description: 'Roll', options: [{ name: 'sides', description: 'n', type: 'integer' }] };
    expect(check(CommandDefinition, ok).ok).toBe(true);
    expect(pathsOf(CommandDefinition, { ...ok, name: 'Roll' })).toContain('/name');
    expect(pathsOf(CommandDefinition, { ...ok, description: '' })).toContain('/description');
    expect(pathsOf(CommandDefinition, { ...ok, description: 'x'.repeat(101) })).toContain('/description');
    expect(check(CommandDefinition, { ...ok, options: [{ name: 'x', description: 'd', type: 'date' }] }).ok).toBe(
      false,
    );
    expect(
      check(
        ReplaceCommandsBody,
        Array.from({ length: 101 }, (_, i) => ({ ...ok, name: `c${i}` })),
      ).ok,
    ).toBe(false);
  });

  it('keeps unknown keys of command options (SPEC says inner fields are open)', () => {
    const opt = { name: 'x', description: 'd', type: 'string', autocomplete: true };
    expect(check(CommandDefinition, { name: 'a', description: 'b', options: [opt] }).ok).toBe(true);
  });

  it('allows one level of subcommands only', () => {
    const nested = {
      name: 'poll',
      description: 'Polls',
      options: [
        {
          name: 'new',
          description: 'd',
          type: 'subcommand',
          options: [{ name: 'deep', description: 'd', type: 'subcommand' }],
        },
      ],
    };
    expect(check(CommandDefinition, nested).ok).toBe(false);
  });
});

describe('response and event schemas', () => {
  it('wraps lists as the contract says', () => {
    expect(check(BoardList, { boards: [s.board] }).ok).toBe(true);
    expect(check(MemberList, { members: [s.member] }).ok).toBe(true);
    expect(check(MessageList, { messages: [s.message] }).ok).toBe(true);
    expect(check(CommandList, { commands: [s.command] }).ok).toBe(true);
    expect(pathsOf(MessageList, { messages: [{ ...s.message, seq: 0 }] })).toContain('/messages/0/seq');
  });

  it('accepts every gateway event and rejects a payload of the wrong kind', () => {
    const samples = {
      ready: { type: 'ready', app: s.app, board_ids: [s.ids.board], resumed: false },
      'message.create': { type: 'message.create', message: s.message },
      'message.edit': { type: 'message.edit', message: { ...s.message, edited_at: '2026-11-21T10:00:01.000Z' } },
      'message.delete': {
        type: 'message.delete',
        message: { ...s.message, content: null, deleted_at: '2026-11-21T10:00:01.000Z' },
      },
      'interaction.create': { type: 'interaction.create', interaction: s.interaction },
    };
    for (const [name, schema] of Object.entries(GATEWAY_EVENT_SCHEMAS)) {
      expect(check(schema, samples[name as keyof typeof samples]).ok, name).toBe(true);
      expect(check(schema, { type: name }).ok, `${name} without payload`).toBe(false);
    }
    expect(check(GATEWAY_EVENT_SCHEMAS.ready, { ...samples.ready, resumed: false, gap: true }).ok).toBe(true);
  });
});

describe('error envelope', () => {
  it('parses a known code with details', () => {
    const body = {
      error: { code: 'validation_failed', message: 'bad', details: [{ path: '/content', message: 'too long' }] },
    };
    expect(check(ErrorEnvelope, body).ok).toBe(true);
  });

  it('still parses an unknown error code', () => {
    expect(check(ErrorEnvelope, { error: { code: 'teapot', message: 'I am a teapot' } }).ok).toBe(true);
  });

  it('carries retry_after on rate_limited', () => {
    expect(check(ErrorEnvelope, { error: { code: 'rate_limited', message: 'slow down', retry_after: 0.734 } }).ok).toBe(
      true,
    );
  });

  it('rejects a body without error.code', () => {
    expect(pathsOf(ErrorEnvelope, { error: { message: 'x' } })).toContain('/error/code');
    expect(check(ErrorEnvelope, { code: 'x' }).ok).toBe(false);
  });
});
