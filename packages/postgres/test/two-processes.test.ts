import { fileURLToPath } from 'node:url';
import { buildProjects, LoggingProcess } from '@boardbot/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSchema, usePostgres } from './support/postgres.js';

// The compare-and-set across processes, on one database: two Node processes, each with its own
// client and pool, update one session 100 times at once each.
const fixture = usePostgres();
beforeAll(() => buildProjects('packages/postgres'), 120_000);

const script = fileURLToPath(new URL('./support/updater.mjs', import.meta.url));

describe('200 session updates at once through two processes', () => {
  it('loses none: the count is 200, each process’s 100 are in it, and the version rose once per update', async () => {
    const schema = freshSchema();
    const env = { PG_URL: fixture().server.url, PG_SCHEMA: schema, SESSION_KEY: 'app:tally:user:1', UPDATES: '100' };
    const processes = ['a', 'b'].map(
      (who) => new LoggingProcess({ script, name: `updater ${who}`, env: { ...env, WHO: who }, stdin: true }),
    );
    for (const p of processes) await p.waitFor((l) => l.msg === 'ready');
    for (const p of processes) p.send('go');
    const reports = await Promise.all(processes.map((p) => p.waitFor((l) => l.msg === 'done')));
    for (const p of processes) expect(await p.exited).toBe(0);

    const record = await fixture().stores({ schema }).sessions.read('app:tally:user:1');
    expect(record?.version).toBe(200);
    expect(record?.value?.data).toEqual({ count: 200, by: { a: 100, b: 100 } });
    // The writers did meet: each lost some writes to the other's, and retried them.
    expect(reports.map((r) => r.lost as number).every((lost) => lost > 0)).toBe(true);
  }, 120_000);
});
