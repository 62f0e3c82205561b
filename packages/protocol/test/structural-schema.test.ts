import { expect, it } from 'vitest';
import { checkerFor, GATEWAY_EVENT_CHECKERS, MessageCreateEvent } from '../src/index.js';
import { structuralSchema } from '../src/runtime/structural-schema.js';
import { message } from './samples.js';

it('keeps types and required fields but not string formats', () => {
  const strict = checkerFor(MessageCreateEvent);
  const structural = checkerFor(structuralSchema(MessageCreateEvent));
  const odd = { type: 'message.create', message: { ...message, id: 'msg_1', created_at: 'yesterday' } };
  expect(strict.is(odd)).toBe(false);
  expect(structural.is(odd)).toBe(true);
  expect(structural.is({ type: 'message.create', message: { ...message, seq: '1' } })).toBe(false);
  expect(structural.is({ type: 'message.edit', message })).toBe(false);
  const { content: _content, ...missing } = message;
  expect(structural.is({ type: 'message.create', message: missing })).toBe(false);
});

it('is what the gateway checks each event with, ahead of time (GATEWAY_EVENT_CHECKERS)', () => {
  const odd = { type: 'message.create', message: { ...message, id: 'msg_1', created_at: 'yesterday' } };
  const precompiled = GATEWAY_EVENT_CHECKERS['message.create'];
  expect(precompiled.is(odd)).toBe(true);
  expect(precompiled.is({ type: 'message.create', message: { ...message, seq: '1' } })).toBe(false);
});
