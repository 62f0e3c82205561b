import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildProjects, cleanEnv, type TempDir, tempDir } from '@boardbot/test-support';
import { afterAll, beforeAll, expect, it } from 'vitest';

// scripts/soak.mjs, run for two slices of 15 s: its report has every figure of every slice, and the
// bot under its mixed traffic lost and doubled no answer. (The real soak runs for 30 minutes: see
// docs/production.md.)

const root = fileURLToPath(new URL('../../', import.meta.url));
let dir: TempDir;
beforeAll(async () => {
  await buildProjects('packages/core', 'packages/emulator', 'packages/redis');
  dir = tempDir('boardbot-soak-test-');
}, 180_000);
afterAll(() => dir?.remove());

const figure = expect.any(Number);

it('reports each slice of a short soak, with no answer lost or doubled', async () => {
  const json = join(dir.dir, 'report.json');
  await promisify(execFile)(
    process.execPath,
    ['scripts/soak.mjs', '--minutes', '0.5', '--slice-seconds', '15', '--rate', '20', '--no-build', '--json', json],
    { cwd: root, env: cleanEnv(), timeout: 75_000 },
  );
  const report = JSON.parse(readFileSync(json, 'utf8'));
  expect(report).toMatchObject({ replicas: 1, minutes: 0.5, sliceSeconds: 15, lost: 0, doubled: 0, failures: 0 });
  expect(report.slices).toHaveLength(2);
  for (const slice of report.slices) {
    expect(slice).toMatchObject({
      rssMb: [figure],
      heapMb: [figure],
      codeMb: [figure],
      loopDelayP99Ms: figure,
      roundTripMs: { p50: figure, p99: figure, n: figure },
      handlerMs: { ownP99: figure, emulatorP99: figure, n: figure },
      lost: 0,
      doubled: 0,
    });
    expect(slice.answers).toBeGreaterThan(0);
  }
  // Every delete reached its listener, and the schedule kept ticking (every 5 s).
  expect(report.deletes.seen).toBe(report.deletes.sent);
  expect(report.ticks).toBeGreaterThanOrEqual(4);
  expect(report.memory).toMatchObject({ slopeMbPerMinute: figure, scatterMb: figure });
  expect(['leak', 'no leak']).toContain(report.memory.verdict);
}, 90_000);
