import { type Thread, toModelMessages } from '@boardbot/core';
import { ANSWER_CURSOR, ANSWER_PLACEHOLDER, type Message } from '@boardbot/protocol';
import { describe, expect, it } from 'vitest';

// docs/assistants.md, "Threads as model input": an answer of the bot's still being written is given
// to the model as the text it has so far, never with the streaming cursor or the placeholder.

const AT = '2026-11-28T10:00:00.000Z';
let seq = 0;
const message = (content: string | null, author: string): Message => ({
  id: `m${++seq}`,
  board_id: 'b1',
  author,
  kind: 'default',
  content,
  media: null,
  embeds: null,
  webhook_name: null,
  reply_to: null,
  seq,
  created_at: AT,
  edited_at: null,
  deleted_at: null,
  interaction: null,
});
const thread = (...messages: [content: string, own: boolean][]): Thread => ({
  kind: 'recent',
  messages: messages.map(([content, own]) => ({
    message: message(content, own ? 'bot' : 'alice'),
    authorName: own ? 'dev-bot' : 'Alice',
    own,
  })),
});

describe('toModelMessages and answers still being written', () => {
  it('gives a streaming answer without its cursor', () => {
    expect(
      toModelMessages(thread(['tell me a story', false], [`Once upon${ANSWER_CURSOR}`, true], ['and then?', false])),
    ).toEqual([
      { role: 'user', content: 'Alice: tell me a story' },
      { role: 'assistant', content: 'Once upon' },
      { role: 'user', content: 'Alice: and then?' },
    ]);
  });

  it('leaves out an answer that shows only the placeholder', () => {
    expect(toModelMessages(thread(['hello', false], [ANSWER_PLACEHOLDER, true], ['are you there?', false]))).toEqual([
      { role: 'user', content: 'Alice: hello' },
      { role: 'user', content: 'Alice: are you there?' },
    ]);
  });

  it("keeps a person's own text as written, even one that ends like the cursor", () => {
    expect(toModelMessages(thread([`look${ANSWER_CURSOR}`, false], [ANSWER_PLACEHOLDER, false]))).toEqual([
      { role: 'user', content: `Alice: look${ANSWER_CURSOR}` },
      { role: 'user', content: `Alice: ${ANSWER_PLACEHOLDER}` },
    ]);
  });
});
