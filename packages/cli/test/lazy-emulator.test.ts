import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { DEFAULT_DB_PATH as EMULATOR_DB_PATH, DEFAULT_DEV_TOKEN as EMULATOR_DEV_TOKEN } from '@boardbot/emulator';
import { buildProjects, type TempDir, tempDir } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DB_PATH, DEFAULT_DEV_TOKEN } from '../src/dev/emulator-defaults.js';
import { buildFixtureProject, createFixtureProject, type FixtureProject } from './support/fixture-project.js';

const bin = new URL('../dist/bin.js', import.meta.url).pathname;

// Writes down every ES module the process loads (and the CommonJS ones an `import` loads), as it loads.
const HOOKS = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.LOADED_LOG, url + '\\n');
  return next(url, context);
}`;

let dir: TempDir;
let project: FixtureProject;
let refusing: Server;
beforeAll(async () => {
  await buildProjects('packages/cli');
  dir = tempDir('boardbot-lazy-emulator-');
  project = createFixtureProject('lazy-emulator');
  await buildFixtureProject(project);
  // A platform that refuses the token: the bot's start gets as far as its first call.
  refusing = createServer((_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'unauthorized', message: 'unknown token' } }));
  }).listen(0, '127.0.0.1');
  await once(refusing, 'listening');
}, 180_000);
afterAll(() => {
  refusing?.close();
  project?.remove();
  dir?.remove();
});

describe('the emulator', () => {
  it("is not loaded by `boardbot start`, whose bot runs against the platform (neither the emulator, its control client, Fastify, nor the protocol's TypeBox schemas)", async () => {
    const hooks = join(dir.dir, 'hooks.mjs');
    const preload = join(dir.dir, 'preload.mjs');
    const log = join(dir.dir, 'loaded.log');
    writeFileSync(hooks, HOOKS);
    writeFileSync(
      preload,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
    );
    writeFileSync(log, '');
    const { port } = refusing.address() as AddressInfo;
    const run = promisify(execFile)(process.execPath, ['--import', pathToFileURL(preload).href, bin, 'start'], {
      cwd: project.dir,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LOADED_LOG: log,
        BOARDBOT_TOKEN: 'refused-token',
        BOARDBOT_API_URL: `http://127.0.0.1:${port}/api/v1`,
        BOARDBOT_STATE_DIR: join(dir.dir, 'state'),
      },
    });
    const failed = (await run.then(
      () => undefined,
      (error: { code?: unknown }) => error,
    )) as { code?: unknown } | undefined;
    expect(failed?.code).not.toBe(0);
    const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    // The bot did run: its own entry and the runtime were loaded.
    expect(loaded.filter((url) => url.startsWith(pathToFileURL(project.dir).href))).not.toEqual([]);
    expect(loaded.filter((url) => /[\\/]packages[\\/]core[\\/]dist[\\/]index\.js$/.test(url))).toHaveLength(1);
    expect(loaded.filter((url) => /[\\/](packages[\\/]emulator|node_modules[\\/]fastify)[\\/]/.test(url))).toEqual([]);
    // The CLI's errors come from `@boardbot/protocol/error-root`: the root entry builds every schema.
    expect(loaded.filter((url) => /[\\/]@sinclair[\\/]typebox[\\/]/.test(url))).toEqual([]);
    expect(loaded.filter((url) => /[\\/]packages[\\/]protocol[\\/]dist[\\/]index\.js$/.test(url))).toEqual([]);
  });

  it("defaults the CLI names agree with the emulator's own", () => {
    expect(DEFAULT_DB_PATH).toBe(EMULATOR_DB_PATH);
    expect(DEFAULT_DEV_TOKEN).toBe(EMULATOR_DEV_TOKEN);
  });
});
