import { EventEmitter } from 'node:events';
import { type DevEvents, type ReloadsOptions, reloadOnChanges } from '@boardbot/cli/internal';
import { describe, expect, it } from 'vitest';
import { testIo } from './support/test-io.js';

// docs/cli.md, "Each save reloads at once": a type error is printed with "the bot runs the saved code
// anyway", a syntax error with "the bot keeps running the last good build". The save's fast emit and
// the type check run in two threads, so the build's report may come before the emit's restart.

const ERROR = "src/ping.ts(3,14): error TS2322: Type 'string' is not assignable to type 'number'.";

/** Reloads over a bot that has run once; restarts are only counted (no process is started). */
function reloadsOfRunningBot() {
  const io = testIo('/tmp');
  let restarts = 0;
  const bot = {
    running: true,
    startCount: 1,
    pid: undefined,
    restart: async () => {
      restarts++;
      return true;
    },
  } as unknown as ReloadsOptions['bot'];
  const project = { dir: '/tmp', entry: '/tmp', botModule: '/tmp' } as ReloadsOptions['project'];
  const reloads = reloadOnChanges({ bot, project, entryFlag: false, io, events: new EventEmitter<DevEvents>() });
  return { io, reloads, restarts: () => restarts };
}

describe("boardbot dev's report of a failed build beside the fast emit", () => {
  it('says the bot runs the saved code when the type check reports before the save is emitted', async () => {
    const { io, reloads, restarts } = reloadsOfRunningBot();
    reloads.onDiagnostic(ERROR);
    reloads.onBuild({ errors: 1, emitted: 0, first: false, emittable: true });
    reloads.onFastEmit(['/tmp/dist/ping.js']);
    await reloads.idle();
    expect(io.errors).toEqual([
      ERROR,
      'Type check found 1 error: the bot runs the saved code anyway (types do not hold a reload back).',
    ]);
    expect(restarts()).toBe(1);
  });

  it('says the bot keeps its last good build when the fast emit leaves the save to the build', () => {
    const { io, reloads } = reloadsOfRunningBot();
    reloads.onDiagnostic('src/ping.ts(4,23): error TS1109: Expression expected.');
    reloads.onBuild({ errors: 1, emitted: 0, first: false, emittable: false });
    expect(io.errors.at(-1)).toBe('Build failed with 1 error: the bot keeps running the last good build.');
  });
});
