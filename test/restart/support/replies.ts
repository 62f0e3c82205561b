import { FilePositionStore, type Position, STREAM_TEXTS } from '@boardbot/core';
import { splitAnswer } from '@boardbot/core/internal';
import { LIMITS, type Message } from '@boardbot/protocol';
import { botMessages, until } from '@boardbot/test-support';
import { expect } from 'vitest';
import type { Scenario } from './scenario.js';

/** The parts a streamed answer lays `text` out in: the content limit less the cursor's room, as the stream does. */
export const streamParts = (text: string): string[] =>
  splitAnswer(text, LIMITS.contentLength - STREAM_TEXTS.cursor.length);

/** Resolves when `test` holds, checking every 100 ms; fails after `timeoutMs`, with the bots' warnings. */
export function eventually(s: Scenario, test: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  return until(test, what, { timeoutMs, intervalMs: 100, report: () => s.report() });
}

/** Posts `n` messages `m <prefix>-<i>` on `board`, alternating alice and bob. */
export async function post(s: Scenario, n: number, prefix: string, board = 'general'): Promise<Message[]> {
  const people = [s.platform.person('alice'), s.platform.person('bob')];
  const out: Message[] = [];
  for (let i = 0; i < n; i++) {
    out.push(await (people[i % 2] as (typeof people)[0]).say(`m ${prefix}-${i}`, { board }));
  }
  return out;
}

/** The bot's replies on `board` to any of `messages`, oldest first. */
export async function repliesTo(s: Scenario, messages: readonly Message[], board = 'general'): Promise<Message[]> {
  const wanted = new Set(messages.map((m) => m.id));
  const mine = botMessages(await s.platform.messages(board), s.platform.bot.app.bot_user_id);
  return mine.filter((m) => wanted.has(m.reply_to ?? ''));
}

/** Waits until each of `messages` has a reply from the bot (or more: count them once the bot stopped). */
export async function waitForReplies(s: Scenario, messages: readonly Message[], board = 'general'): Promise<void> {
  const wanted = new Set(messages.map((m) => m.id));
  await eventually(
    s,
    async () => new Set((await repliesTo(s, messages, board)).map((r) => r.reply_to)).size === wanted.size,
    `replies to ${messages.length} messages on ${board}`,
  );
}

/**
 * Checks that each of `messages` has exactly one reply, with the fixture's text, in the order the
 * messages were written. Call it once the bots stopped, so that a late second write is counted too.
 *
 * @param text - the reply the fixture gives to a message
 */
export async function expectRepliedOnceInOrder(
  s: Scenario,
  messages: readonly Message[],
  board = 'general',
  text: (m: Message) => string = (m) => `echo ${m.content}`,
): Promise<void> {
  const found = await repliesTo(s, messages, board);
  expect(found.map((r) => r.reply_to)).toEqual(messages.map((m) => m.id));
  expect(found.map((r) => r.content)).toEqual(messages.map(text));
}

/** The resume point the bot process stored in the scenario's state directory, if any. */
export function storedPosition(s: Scenario): Promise<Position | undefined> {
  const key = { apiUrl: s.platform.urls.apiUrl, appId: s.platform.bot.app.id };
  return new FilePositionStore(s.stateDir).load(key);
}
