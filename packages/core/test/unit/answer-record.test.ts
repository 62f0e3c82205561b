import { MemorySessionStore } from '@boardbot/core';
import { AnswerRecord } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

// The record of an answer's messages (answers/answer-record.ts): what a replayed stream reads to find
// its parts again, kept in the session store, bounded and expiring.

const part = (n: number) => ({ boardId: 'board-1', messageId: `message-${n}` });

describe('AnswerRecord', () => {
  it('reads back the parts written under a key, and none under another', async () => {
    const record = new AnswerRecord(new MemorySessionStore(), () => 0);
    await record.write('answer-a', [part(1), part(2)]);
    expect(await record.read('answer-a')).toEqual([part(1), part(2)]);
    expect(await record.read('answer-b')).toEqual([]);
  });

  it('replaces what it had, and forgets a record once its life has passed', async () => {
    let now = 1_000;
    const record = new AnswerRecord(new MemorySessionStore(), () => now, { ttlMs: 500 });
    await record.write('answer-a', [part(1)]);
    await record.write('answer-a', [part(1), part(2)]);
    now = 1_499;
    expect(await record.read('answer-a')).toEqual([part(1), part(2)]);
    now = 1_500;
    expect(await record.read('answer-a')).toEqual([]);
  });

  it('refuses more parts than its bound', async () => {
    const record = new AnswerRecord(new MemorySessionStore(), () => 0, { maxParts: 2 });
    await expect(record.write('answer-a', [part(1), part(2), part(3)])).rejects.toMatchObject({
      code: 'BOARDBOT_BOT_STATE',
    });
  });
});
