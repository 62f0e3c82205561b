import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildProjects, cleanEnv, type TempDir, tempDir } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

// Preloaded in the bot's process (and, as every --require, in its worker threads): writes down every
// load of the matchers' dependencies, wherever it happens.
const RECORDER = `
const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const load = Module._load;
Module._load = function (request, ...rest) {
  // By name (re2js) or by resolved path (the worker's recheck).
  const found = /(?:^|[\\\\/]node_modules[\\\\/])(recheck|re2js)(?:[\\\\/]|$)/.exec(request);
  if (found) appendFileSync(process.env.LOADED_LOG, found[1] + '\\n');
  return load.call(this, request, ...rest);
};
`;

// A bot with one listener (a prefix, a regular expression, or one on re2) whose start gets past the
// check and stops at the app token, refused by a server of its own.
const BOT = `
import { createServer } from 'node:http';
import { createBot, OnMessage } from '@boardbot/core';
const server = createServer((_req, res) => {
  res.writeHead(401, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code: 'unauthorized', message: 'unknown token' } }));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
class Listener { hear() {} }
const kind = process.env.MATCHER;
const matcher = kind === 'prefix' ? '!m' : /^m (\\w+)$/;
OnMessage(matcher, kind === 're2' ? { engine: 're2' } : {})(Listener.prototype, 'hear', {});
const bot = createBot({
  token: 'test-token', apiUrl: 'http://127.0.0.1:' + server.address().port, handlers: [Listener],
  stateDir: process.env.STATE_DIR, position: false, handleSignals: false, logger: false,
});
const outcome = await bot.start().then(() => 'started', (error) => error.code);
server.close();
const { readdirSync } = await import('node:fs');
let verdicts = 0;
try {
  verdicts = readdirSync(process.env.STATE_DIR + '/regex-checks').length;
} catch {}
process.stdout.write(JSON.stringify({ outcome, verdicts }));
`;

let dir: TempDir;
beforeAll(async () => {
  await buildProjects('packages/core');
  dir = tempDir('boardbot-lazy-');
  writeFileSync(join(dir.dir, 'recorder.cjs'), RECORDER);
});
afterAll(() => dir.remove());

/** Starts the bot in its own process; what its start ended with, and which dependencies it loaded. */
async function run(
  matcher: 'prefix' | 'regex' | 're2',
): Promise<{ outcome: string; verdicts: number; loaded: string[] }> {
  const log = join(dir.dir, `${matcher}.log`);
  writeFileSync(log, '');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--require', join(dir.dir, 'recorder.cjs'), '--input-type=module', '--eval', BOT],
    { cwd: root, env: { ...cleanEnv(), MATCHER: matcher, LOADED_LOG: log, STATE_DIR: join(dir.dir, matcher) } },
  );
  const loaded = [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))].sort();
  return { ...(JSON.parse(stdout) as { outcome: string; verdicts: number }), loaded };
}

describe("the matchers' dependencies", () => {
  it('are not loaded by a bot that declares no regular expression, which checks nothing', async () => {
    expect(await run('prefix')).toEqual({ outcome: 'BOARDBOT_UNAUTHORIZED', verdicts: 0, loaded: [] });
  });

  it('a bot with a regular expression checks it (in a process of its own here: recheck is not even loaded)', async () => {
    expect(await run('regex')).toEqual({ outcome: 'BOARDBOT_UNAUTHORIZED', verdicts: 1, loaded: [] });
  });

  it('re2js is loaded by a bot with a listener on re2, which checks nothing', async () => {
    expect(await run('re2')).toEqual({ outcome: 'BOARDBOT_UNAUTHORIZED', verdicts: 0, loaded: ['re2js'] });
  });
});
