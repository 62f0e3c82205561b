import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventuallyValue } from '@boardbot/test-support';
import { describe, expect, it, onTestFailed } from 'vitest';
import { Control, POLL } from './support/control.js';
import { runDevForTest } from './support/dev-session.js';
import { fixtureProjectForTest } from './support/fixture-project.js';
import { testIo } from './support/test-io.js';

/** `/ping`, answering `pong <version>`; the version is exported, so a save changes the file's types. */
const pingSource = (version: string) => `import { Command } from '@boardbot/core';

export const VERSION = '${version}' as const;

@Command({ name: 'ping', description: 'Answers pong' })
export class Ping {
  run() {
    return \`pong \${VERSION}\`;
  }
}
`;

/**
 * A file whose type check takes seconds, and is redone by every build after a save of ping.ts (it
 * uses that file's types); the saved file's own emit does not check it. Each line builds a tuple of
 * 900-odd elements one element at a time.
 */
const SLOW_CHECK = `import { VERSION } from './ping.js';

type Tuple<N extends number, T extends unknown[] = []> = T['length'] extends N ? T : Tuple<N, [...T, T['length']]>;
export const version: typeof VERSION = VERSION;
${Array.from({ length: 16 }, (_, i) => `export const n${i}: Tuple<${900 + i}>['length'] = ${900 + i};`).join('\n')}
`;

describe('boardbot dev: a save made while a type check runs', () => {
  it('reloads at once, and the older build never brings the older code back', async () => {
    const project = fixtureProjectForTest('dev-race', { definition: true });
    project.write('src/ping.ts', pingSource('v1'));
    project.write('src/slow-check.ts', SLOW_CHECK);
    const io = testIo(project.dir);
    const session = await runDevForTest({ port: 0, db: ':memory:', logLevel: 'warn' }, io);
    onTestFailed(() => console.error(io.text()));
    const control = new Control(session.urls.controlUrl, session.emulator.adminKey);
    expect((await control.firstAnswer('ping')).answers[0]?.content).toBe('pong v1');

    // What happened, in the order the test saw it: each answer's text, and each end of a build.
    const seen: string[] = [];
    onTestFailed(() => console.error(seen.join('\n')));
    session.on('build', () => seen.push('build'));
    const { alice, general } = await control.seedIds();
    let asking = true;
    const asker = (async () => {
      while (asking) {
        const { id } = await control.client.invoke({ board_id: general, user_id: alice, command: 'ping', options: {} });
        const view = await control.client.wait(id, { answers: 1, timeoutMs: 30_000 });
        if (view.answers[0]?.content) seen.push(view.answers[0].content);
      }
    })();
    // A failed invoke fails the test where the asker is awaited, not as an unhandled rejection.
    asker.catch(() => {});

    // A is saved; once its build has read it and checks, B is saved, inside that check.
    const checking = new Promise<void>((resolve) => session.once('build-start', () => resolve()));
    project.write('src/ping.ts', pingSource('v2'));
    await checking;
    const mark = seen.length;
    project.write('src/ping.ts', pingSource('v3'));

    // A's build ends, then B's; then the bot answers once more.
    await eventuallyValue(
      async () => seen.slice(mark),
      (after) => after.filter((s) => s === 'build').length === 2 && after.at(-1) !== 'build',
      { ...POLL, timeoutMs: 120_000 },
    );
    asking = false;
    await asker;

    const after = seen.slice(mark);
    const firstB = after.indexOf('pong v3');
    // B answered before A's check ended: the save was emitted and reloaded at once, not after it.
    expect(firstB).toBeGreaterThanOrEqual(0);
    expect(firstB).toBeLessThan(after.indexOf('build'));
    // Once B answered, A never again: A's build did not write its older JavaScript over B's.
    expect(after.slice(firstB).filter((s) => s.startsWith('pong') && s !== 'pong v3')).toEqual([]);
    // It ends on B, and B is what dist/ holds.
    expect(after.at(-1)).toBe('pong v3');
    expect(readFileSync(join(project.dir, 'dist', 'ping.js'), 'utf8')).toContain("'v3'");
  }, 240_000);
});
