import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { buildProjects, cleanEnv, tempDir, vacantPort } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = tempDir('boardbot-postgres-lazy-');
afterAll(() => dir.remove());

// A load hook that writes down each ES module as it loads, and a bot's process that imports the
// package, builds its stores, then uses them (against a port where nothing listens: the first use
// loads the client either way), marking each stage in the same log.
const HOOKS = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.LOADED_LOG, url + '\\n');
  return next(url, context);
}`;
const SCRIPT = `
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
register(process.env.HOOKS_URL);
const { postgresStores } = await import('@boardbot/postgres');
const stores = postgresStores({ url: process.env.PG_URL, connectTimeoutMs: 1000 });
appendFileSync(process.env.LOADED_LOG, 'stage: built\\n');
await stores.ready().catch(() => {});
appendFileSync(process.env.LOADED_LOG, 'stage: used\\n');
`;

let log: string[];
beforeAll(async () => {
  await buildProjects('packages/postgres');
  const hooks = join(dir.dir, 'hooks.mjs');
  const file = join(dir.dir, 'loaded.log');
  writeFileSync(hooks, HOOKS);
  writeFileSync(file, '');
  await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', SCRIPT], {
    cwd: root,
    env: {
      ...cleanEnv(),
      HOOKS_URL: pathToFileURL(hooks).href,
      LOADED_LOG: file,
      PG_URL: `postgres://bot@127.0.0.1:${await vacantPort()}/app`,
    },
  });
  log = readFileSync(file, 'utf8').split('\n').filter(Boolean);
}, 120_000);

describe('the postgres client', () => {
  it('is loaded at the stores’ first use, not when a bot imports the package and builds them', () => {
    const client = (line: string) => /[\\/]node_modules[\\/]postgres[\\/]/.test(line);
    const built = log.indexOf('stage: built');
    const used = log.indexOf('stage: used');
    expect(built).toBeGreaterThan(0);
    expect(log.slice(0, built).filter(client)).toEqual([]);
    expect(log.slice(built, used).filter(client).length).toBeGreaterThan(0);
  });
});
