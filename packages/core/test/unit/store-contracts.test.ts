import { FilePositionStore, FileSessionStore, MemoryPositionStore, MemorySessionStore } from '@boardbot/core';
import { AnswerRecord, Cooldowns, ScheduleClaims } from '@boardbot/core/internal';
import {
  ANSWER_RECORD_CONTRACT,
  COOLDOWN_STORE_CONTRACT,
  POSITION_STORE_CONTRACT,
  SCHEDULE_CLAIMS_CONTRACT,
  SHARED_COOLDOWN_STORE_CONTRACT,
  tempDir,
} from '@boardbot/test-support';
import { afterAll, describe, it } from 'vitest';

// The contracts of the store ports beside sessions (session-stores.test.ts), on core's own stores;
// @boardbot/redis and @boardbot/postgres run the same checks on theirs.
const dir = tempDir('boardbot-store-contracts-');
afterAll(() => dir.remove());

const sessionStores = {
  MemorySessionStore: () => new MemorySessionStore(),
  FileSessionStore: () => new FileSessionStore(dir.dir),
};

for (const [name, make] of Object.entries(sessionStores)) {
  describe(`schedule claims in ${name}`, () => {
    for (const [check, run] of Object.entries(SCHEDULE_CLAIMS_CONTRACT)) {
      it(check, () => {
        const store = make();
        return run((app, instance) => new ScheduleClaims(store, app, instance));
      });
    }
  });
  describe(`answer records and editable links in ${name}`, () => {
    for (const [check, run] of Object.entries(ANSWER_RECORD_CONTRACT)) {
      it(check, () => {
        const store = make();
        return run((now) => new AnswerRecord(store, now));
      });
    }
  });
}

const positionStores = {
  MemoryPositionStore: () => new MemoryPositionStore(),
  FilePositionStore: () => new FilePositionStore(dir.dir),
};

for (const [name, make] of Object.entries(positionStores)) {
  describe(name, () => {
    for (const [check, run] of Object.entries(POSITION_STORE_CONTRACT)) it(check, () => run(make()));
  });
}

describe('Cooldowns (in the process)', () => {
  for (const [check, run] of Object.entries({ ...COOLDOWN_STORE_CONTRACT, ...SHARED_COOLDOWN_STORE_CONTRACT })) {
    it(check, () => run(new Cooldowns(() => Date.now())));
  }
});
