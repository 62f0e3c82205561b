import { FileSessionStore, MemorySessionStore } from '@boardbot/core';
import { SESSION_STORE_CONTRACT, tempDir } from '@boardbot/test-support';
import { afterAll, describe, it } from 'vitest';

// The contract every store keeps (the Redis store runs the same checks in @boardbot/redis).
const dir = tempDir('boardbot-session-stores-');
afterAll(() => dir.remove());

const stores = {
  MemorySessionStore: () => new MemorySessionStore(),
  FileSessionStore: () => new FileSessionStore(dir.dir),
};

for (const [name, make] of Object.entries(stores)) {
  describe(name, () => {
    for (const [check, run] of Object.entries(SESSION_STORE_CONTRACT)) it(check, () => run(make()));
  });
}
