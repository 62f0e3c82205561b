import { join } from 'node:path';
import { createEmulator, EmulatorDatabaseInUseError } from '@boardbot/emulator';
import { tempDir } from '@boardbot/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The lock in one process (the CLI's tests cover two processes and kill -9): an emulator holds its
// file from createEmulator() to close().

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir('boardbot-db-lock-');
});
afterEach(() => dir.remove());

describe('the database lock', () => {
  it('refuses a second emulator on a held file, naming the file and the holder, until the first closes', async () => {
    const db = join(dir.dir, 'held.db');
    const first = await createEmulator({ db, logger: false });
    try {
      const before = await createEmulator({ db, logger: false }).catch((e: unknown) => e);
      expect(before).toBeInstanceOf(EmulatorDatabaseInUseError);
      expect(before).toMatchObject({ code: 'BOARDBOT_EMULATOR_DB_IN_USE', path: db, owner: { pid: process.pid } });
      const urls = await first.listen({ host: '127.0.0.1', port: 0 });
      const after = (await createEmulator({ db, logger: false }).catch((e: unknown) => e)) as Error;
      expect(after).toMatchObject({ owner: { pid: process.pid, url: urls.url } });
      expect(after.message).toContain(
        `The emulator database ${db} is in use by another emulator (pid ${process.pid}, ${urls.url})`,
      );
      expect(after.message).toContain('--db <file>');
      expect(after.message).not.toContain(first.adminKey);
    } finally {
      await first.close();
    }
    const next = await createEmulator({ db, logger: false });
    await next.close();
  });

  it('leaves in-memory emulators alone: any number run side by side', async () => {
    const a = await createEmulator({ db: ':memory:', logger: false });
    const b = await createEmulator({ db: ':memory:', logger: false });
    await a.close();
    await b.close();
  });
});
