// One process of the two-process test: opens the stores (built), says `ready`, waits for `go` on
// stdin, then makes UPDATES increments of one session at once, each retried as `update()` retries a
// lost compare-and-set, and reports how many it made and how many writes it lost to the other writers.
import { createInterface } from 'node:readline';
import { postgresStores } from '../../dist/index.js';

const { PG_URL, PG_SCHEMA, SESSION_KEY, UPDATES, WHO } = process.env;
const say = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
const pg = postgresStores({ url: PG_URL, schema: PG_SCHEMA });
await pg.ready();
say({ msg: 'ready' });
const lines = createInterface({ input: process.stdin });
await new Promise((resolve) => lines.once('line', resolve));
lines.close();
process.stdin.destroy();

let lost = 0;
async function increment(n) {
  for (;;) {
    const record = await pg.sessions.read(SESSION_KEY);
    const tally = record?.value?.data ?? { count: 0, by: {} };
    const data = { count: tally.count + 1, by: { ...tally.by, [WHO]: (tally.by[WHO] ?? 0) + 1 } };
    const value = { data, shape: 1, expiresAt: null, applied: [`${WHO}-${n}`] };
    if (await pg.sessions.write(SESSION_KEY, record?.version ?? 0, value)) return;
    lost++;
  }
}
await Promise.all(Array.from({ length: Number(UPDATES) }, (_, n) => increment(n)));
say({ msg: 'done', updates: Number(UPDATES), lost });
await pg.close();
