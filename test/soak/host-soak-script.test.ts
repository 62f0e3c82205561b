import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildProjects, cleanEnv, type TempDir, tempDir } from '@boardbot/test-support';
import { afterAll, beforeAll, expect, it } from 'vitest';

// scripts/host-soak.mjs, run for two slices of 15 s with 4 apps over 2 replicas (`boardbot start
// --host --redis`), one SIGKILLed and restarted: its report counts every operation answered once and
// gives each replica process its heap verdict. (The real soak runs 20 apps over 4 replicas for 60
// minutes: see docs/production.md.)

const root = fileURLToPath(new URL('../../', import.meta.url));
let dir: TempDir;
beforeAll(async () => {
  await buildProjects('packages/cli', 'packages/emulator', 'packages/redis');
  dir = tempDir('boardbot-host-soak-test-');
}, 180_000);
afterAll(() => dir?.remove());

const figure = expect.any(Number);

it('reports a short soak of a host over replicas, a replica killed: no answer lost or doubled', async () => {
  const json = join(dir.dir, 'report.json');
  const args = ['--minutes', '0.5', '--slice-seconds', '15', '--apps', '4', '--replicas', '2', '--rate', '4'];
  const kills = ['--kill-every-seconds', '20', '--restart-after-seconds', '4'];
  await promisify(execFile)(
    process.execPath,
    ['scripts/host-soak.mjs', ...args, ...kills, '--replica-node-flags=--no-opt|', '--no-build', '--json', json],
    {
      cwd: root,
      env: cleanEnv(),
      timeout: 100_000,
    },
  );
  const report = JSON.parse(readFileSync(json, 'utf8'));
  expect(report).toMatchObject({ apps: 4, replicas: 2, minutes: 0.5, lost: 0, doubled: 0, failures: 0, kills: 1 });
  expect(report.sent).toBeGreaterThan(0);
  expect(report.answered).toBe(report.sent);
  expect(report.slices).toHaveLength(2);
  for (const slice of report.slices) {
    // A replica killed and not yet back when the slice closes has no figures (null).
    expect(slice.rssMb).toHaveLength(2);
    expect(slice.heapMb[0]).toEqual(figure);
    expect(slice.codeMb[0]).toEqual(figure);
    expect(slice).toMatchObject({ lost: 0, doubled: 0 });
    expect(slice.answers).toBe(slice.sent);
  }
  // r0 lived through the run; r1 was killed and r2 started in its place.
  expect(report.memory.map((m: { replica: string; killed: boolean }) => [m.replica, m.killed])).toEqual([
    ['r0', false],
    ['r1', true],
    ['r2', false],
  ]);
  // The verdict judges the whole heap after GC; the compiled code in it is reported beside.
  expect(report.memory[0]).toMatchObject({
    slopeMbPerMinute: figure,
    scatterMb: figure,
    heapMb: [figure, figure],
    codeMb: [figure, figure],
  });
  expect(['leak', 'no leak']).toContain(report.memory[0].verdict);
  // The run's verdict is that of the processes that lived the rule's window (the whole 30 s here):
  // r0 alone; r1 was killed and r2 started late.
  expect(report.heap).toEqual({ windowMinutes: 0.5, judged: ['r0'], verdict: report.memory[0].verdict });
  // Each process's samples, `[minute, heap, code]`, and its own Node flags (slot 0's; slot 1's none).
  expect(report.memory[0].series).toHaveLength(report.memory[0].samples);
  expect(report.memory[0].series[0]).toEqual([figure, figure, figure]);
  expect(report.memory.map((m: { nodeFlags: string[] }) => m.nodeFlags)).toEqual([['--no-opt'], [], []]);
}, 150_000);
