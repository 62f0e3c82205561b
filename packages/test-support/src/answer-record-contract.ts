import { deepStrictEqual, ok, strictEqual } from 'node:assert/strict';
import { randomUUID } from 'node:crypto';

/** One message of an answer, as core's `AnswerPart`. */
export interface PartUnderTest {
  boardId: string;
  messageId: string;
  look?: string;
}

/** Core's `AnswerRecord` as the checks use it (structurally: test-support does not depend on core). */
export interface AnswerRecordUnderTest {
  read(key: string): Promise<PartUnderTest[]>;
  find(key: string): Promise<{ parts: PartUnderTest[]; by: string | undefined } | undefined>;
  write(key: string, parts: readonly PartUnderTest[], by?: string): Promise<void>;
}

/** Builds a record over the one store under test, reading the time from `now` (its life is 24 hours). */
export type AnswerRecordFactory = (now: () => number) => AnswerRecordUnderTest;

const DAY_MS = 24 * 60 * 60 * 1000;
const parts = (n: number, look?: string): PartUnderTest[] =>
  Array.from({ length: n }, (_, i) => ({ boardId: 'b1', messageId: `m${i}`, ...(look && { look }) }));

/**
 * What answer records must do over every session store, as named checks that throw when they do not:
 * a streamed answer's parts, and an editable handler's link from a person's message (`msg:…` keys,
 * with the event that wrote it), both kept in the bot's session store. Each store's tests run them
 * with records built over that store. Each check uses keys of its own.
 */
export const ANSWER_RECORD_CONTRACT: Record<string, (record: AnswerRecordFactory) => Promise<void>> = {
  'finds nothing under a key never written': async (record) => {
    const r = record(() => Date.now());
    strictEqual(await r.find(`bb1:${randomUUID()}`), undefined);
    deepStrictEqual(await r.read(`bb1:${randomUUID()}`), []);
  },
  'keeps a streamed answer’s parts in order, each write replacing the last': async (record) => {
    const r = record(() => Date.now());
    const key = `bb1:${randomUUID()}`;
    await r.write(key, parts(3));
    deepStrictEqual(await r.read(key), parts(3));
    await r.write(key, parts(2));
    deepStrictEqual(await r.find(key), { parts: parts(2), by: undefined });
  },
  'keeps an editable link: its answers with their look, and the event that wrote it': async (record) => {
    const r = record(() => Date.now());
    const key = `msg:b1:${randomUUID()}:text`;
    await r.write(key, [], '41');
    deepStrictEqual(await r.find(key), { parts: [], by: '41' });
    await r.write(key, parts(2, 'sha256:embeds'), '57');
    deepStrictEqual(await r.find(key), { parts: parts(2, 'sha256:embeds'), by: '57' });
  },
  'forgets a record 24 hours after its last write, on the record’s clock': async (record) => {
    // The record's clock starts at the real time and runs ahead of it: the store under it forgets by
    // the real clock (a file a day after it expired, a Redis key at its expiry), so a record written
    // on a clock in the past would be gone before the record's own 24 hours.
    let now = Date.now();
    const r = record(() => now);
    const key = `bb1:${randomUUID()}`;
    await r.write(key, parts(1));
    now += DAY_MS - 1;
    deepStrictEqual(await r.read(key), parts(1));
    await r.write(key, parts(2));
    now += DAY_MS - 1;
    deepStrictEqual(await r.read(key), parts(2));
    now += 1;
    strictEqual(await r.find(key), undefined);
  },
  'lands every one of many writes at once, leaving one of them whole': async (record) => {
    const r = record(() => Date.now());
    const key = `msg:b1:${randomUUID()}:text`;
    const writes = Array.from({ length: 10 }, (_, i) => parts(i + 1, `look-${i}`));
    await Promise.all(writes.map((p, i) => r.write(key, p, String(100 + i))));
    const found = await r.find(key);
    const i = (found?.parts.length ?? 0) - 1;
    ok(i >= 0, 'a record');
    deepStrictEqual(found, { parts: writes[i], by: String(100 + i) });
  },
};
