import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { buildProjects, cleanEnv, type TempDir, tempDir } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

// What importing `@boardbot/core` and building a bot loads: the ES modules through a load hook (which
// writes each down as it loads), the CommonJS ones from the module cache (where Node also puts those
// an `import` loaded).
const HOOKS = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.LOADED_LOG, url.replace(/^file:\\/\\//, '') + '\\n');
  return next(url, context);
}`;

/** A bot with a command without options and a message listener, built (not started). */
const BOT = `
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
register(process.env.HOOKS_URL);
const { Command, createBot, OnMessage } = await import('@boardbot/core');
class Roll { run() {} }
Command({ name: 'roll', description: 'Roll' })(Roll);
class Listener { hear() {} }
OnMessage(/^roll (\\d+)$/)(Listener.prototype, 'hear', {});
createBot({ token: 'test-token', apiUrl: 'http://127.0.0.1:9/api/v1', handlers: [Roll, Listener], logger: false });
appendFileSync(process.env.LOADED_LOG, Object.keys(createRequire(import.meta.url).cache).join('\\n'));
`;

let dir: TempDir;
let loaded: string[];
beforeAll(async () => {
  await buildProjects('packages/core');
  dir = tempDir('boardbot-lazy-imports-');
  const hooks = join(dir.dir, 'hooks.mjs');
  const log = join(dir.dir, 'loaded.log');
  writeFileSync(hooks, HOOKS);
  writeFileSync(log, '');
  await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', BOT], {
    cwd: root,
    env: { ...cleanEnv(), HOOKS_URL: pathToFileURL(hooks).href, LOADED_LOG: log },
  });
  loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
}, 120_000);
afterAll(() => dir.remove());

const some = (pattern: RegExp) => loaded.filter((path) => pattern.test(path));

describe('a bot that uses neither TypeBox nor class-validator itself', () => {
  it("loads the protocol's runtime entry, not the schemas (no TypeBox)", () => {
    expect(some(/[\\/]protocol[\\/]dist[\\/]runtime[\\/]index\.js$/)).toHaveLength(1);
    expect(some(/[\\/]@sinclair[\\/]typebox[\\/]/)).toEqual([]);
  });

  it("loads the class-validator decorators the runtime uses, not the package's index and what it pulls in", () => {
    expect(some(/[\\/]class-validator[\\/]cjs[\\/]decorator[\\/]common[\\/]IsOptional\.js$/)).toHaveLength(1);
    expect(some(/[\\/]class-validator[\\/]cjs[\\/]index\.js$/)).toEqual([]);
    expect(some(/[\\/]libphonenumber-js[\\/]/)).toEqual([]);
  });

  it('loads no session file lock (proper-lockfile and the graceful-fs it patches fs with) before a session is written', () => {
    expect(some(/[\\/]proper-lockfile[\\/]/)).toEqual([]);
    expect(some(/[\\/]graceful-fs[\\/]/)).toEqual([]);
  });
});
