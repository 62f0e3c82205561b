import { join } from 'node:path';
import { FileSessionStore } from '@boardbot/core';
import { tempDir } from '@boardbot/test-support';
import { afterAll, describe, expect, it, vi } from 'vitest';

// docs/sessions.md, "Stores": the file store syncs its directory after each rename or removal, so a
// crash right after a write cannot lose the rename (as the position store does).

const steps: string[] = [];
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    rename: async (from: string, to: string) => {
      await real.rename(from, to);
      steps.push(`rename ${to}`);
    },
    rm: async (path: string, options?: Parameters<typeof real.rm>[1]) => {
      await real.rm(path, options);
      steps.push(`rm ${path}`);
    },
    open: async (...args: Parameters<typeof real.open>) => {
      const handle = await real.open(...args);
      const sync = handle.sync.bind(handle);
      handle.sync = async () => {
        await sync();
        steps.push(`sync ${String(args[0])}`);
      };
      return handle;
    },
  };
});

const root = tempDir('boardbot-dir-sync-');
afterAll(() => root.remove());

describe('the file session store', () => {
  it('syncs the sessions directory after each rename into place and each removal', async () => {
    const store = new FileSessionStore(root.dir);
    const dir = join(root.dir, 'sessions');
    await store.write('k', 0, { data: {}, shape: 1, expiresAt: null, applied: [] });
    await store.write('k', 1, null);
    const file = steps.find((s) => s.startsWith('rename '))?.slice('rename '.length) ?? '';
    expect(file.startsWith(dir)).toBe(true);
    expect(steps.filter((s) => !s.includes('.lock'))).toEqual([
      `sync ${file}.tmp-${process.pid}`,
      `rename ${file}`,
      `sync ${dir}`,
      `rm ${file}`,
      `sync ${dir}`,
    ]);
    await store.close();
  });
});
