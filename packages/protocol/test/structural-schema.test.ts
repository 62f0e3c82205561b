import { expect, it } from 'vitest';
import { checkerFor, MessageCreateEvent } from '../src/index.js';
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
});
