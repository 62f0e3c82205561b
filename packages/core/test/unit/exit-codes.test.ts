import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { BOT_EXIT_CODES, exitCodeAfterStop } from '@boardbot/core';
import { handleShutdownSignals } from '@boardbot/core/internal';
import { silentLogger } from '@boardbot/protocol';
import { describe, expect, it } from 'vitest';

const production = readFileSync(new URL('../../../../docs/production.md', import.meta.url), 'utf8');

/** The codes of the table under `### Exit codes` in docs/production.md. */
function documentedExitCodes(): number[] {
  const section = production.split('### Exit codes')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1]));
}

/** Runs the signal handling with `stop`, sends `signals`, and returns the exit codes asked for. */
async function exitsAfter(stop: () => Promise<number>, signals: ('SIGINT' | 'SIGTERM')[]): Promise<number[]> {
  const source = new EventEmitter();
  const exits: number[] = [];
  const ended = new Promise<void>((resolve) => {
    handleShutdownSignals(stop, {
      source,
      log: silentLogger,
      exit: (code) => {
        exits.push(code);
        resolve();
      },
    });
  });
  for (const signal of signals) source.emit(signal);
  await ended;
  await Promise.resolve();
  return exits;
}

describe('exit codes', () => {
  it('docs/production.md lists exactly the codes the bot exits with', () => {
    expect(documentedExitCodes().sort((a, b) => a - b)).toEqual(Object.values(BOT_EXIT_CODES).sort((a, b) => a - b));
  });

  it('a graceful stop exits with the code the stop resolves with', async () => {
    expect(await exitsAfter(async () => exitCodeAfterStop({ abandoned: [], unhandled: 0 }), ['SIGTERM'])).toEqual([
      BOT_EXIT_CODES.stopped,
    ]);
    const abandoned = { abandoned: [{ handler: 'A.run', eventId: '7' }], unhandled: 0 };
    expect(await exitsAfter(async () => exitCodeAfterStop(abandoned), ['SIGINT'])).toEqual([
      BOT_EXIT_CODES.shutdownTimedOut,
    ]);
    expect(exitCodeAfterStop({ abandoned: [], unhandled: 2 })).toBe(BOT_EXIT_CODES.shutdownTimedOut);
  });

  it('a failed stop exits with 1, a second signal at once with 130', async () => {
    expect(await exitsAfter(() => Promise.reject(new Error('stuck')), ['SIGTERM'])).toEqual([BOT_EXIT_CODES.failed]);
    expect(await exitsAfter(() => new Promise<number>(() => {}), ['SIGTERM', 'SIGINT'])).toEqual([
      BOT_EXIT_CODES.interrupted,
    ]);
  });
});
