// How long a save takes to answer in `boardbot dev` (packages/cli/README.md, "Reload time"): a copy
// of the dice example (test-output/reload-time/), `boardbot dev` on it as a user runs it, then ten times: the
// reply text of /roll changed in src/roll.ts, and /roll invoked through the control API until an
// answer carries the new text. Prints each time and the median. `node scripts/reload-time.mjs [n]`
// after `npx tsc -b`.
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ControlClient } from '@boardbot/emulator/control';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.argv[2] ?? 10);
// Inside the repository, so the copy resolves @boardbot/core from the root's node_modules; its
// tsconfig's paths to the root's configuration made absolute.
const dir = `${root}test-output/reload-time/dice`;
rmSync(dir, { recursive: true, force: true });
cpSync(`${root}examples/dice`, dir, { recursive: true, filter: (p) => !/(node_modules|\.boardbot|dist)$/.test(p) });
const tsconfig = `${dir}/tsconfig.json`;
writeFileSync(tsconfig, readFileSync(tsconfig, 'utf8').replaceAll('../../', root));
const source = `${dir}/src/roll.ts`;
const original = readFileSync(source, 'utf8');

const dev = spawn(
  process.execPath,
  [`${root}packages/cli/dist/bin.js`, 'dev', '--port', '0', '--db', ':memory:', '--log-level', 'warn'],
  { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] },
);
const printed = {};
await new Promise((resolve, reject) => {
  dev.once('exit', (code) => reject(new Error(`boardbot dev exited with ${code}`)));
  createInterface({ input: dev.stdout }).on('line', (line) => {
    const [, name, value] = /^\s+(Control API|Admin key)\s+(\S+)/.exec(line) ?? [];
    if (name) printed[name] = value;
    if (printed['Control API'] && printed['Admin key']) resolve();
  });
});
const control = new ControlClient({ url: printed['Control API'], adminKey: printed['Admin key'] });
const state = await control.state();
const alice = state.users.find((u) => u.username === 'alice').id;
const general = state.boards.find((b) => b.name === 'general').id;

/** Invokes /roll until an answer's text contains `marker`; resolves when one does. */
async function answerWith(marker) {
  for (;;) {
    const invoked = await control
      .invoke({ board_id: general, user_id: alice, command: 'roll', options: {} })
      // Before the first start registers /roll.
      .catch(() => new Promise((resolve) => setTimeout(resolve, 100)));
    if (!invoked) continue;
    const view = await control.wait(invoked.id, { answers: 1, timeoutMs: 10_000 }).catch(() => undefined);
    if (view?.answers[0]?.content?.includes(marker)) return;
  }
}

try {
  await answerWith('You rolled');
  const times = [];
  for (let i = 1; i <= runs; i++) {
    const marker = `You rolled (take ${i})`;
    const started = performance.now();
    writeFileSync(source, original.replace('You rolled', marker));
    await answerWith(marker);
    times.push(performance.now() - started);
    console.log(`save ${i}: ${(times.at(-1) / 1000).toFixed(2)} s`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = (sorted[Math.floor((runs - 1) / 2)] + sorted[Math.ceil((runs - 1) / 2)]) / 2;
  console.log(
    `Node ${process.versions.node}: save → answer with the new text, median of ${runs}: ${(median / 1000).toFixed(2)} s (${(sorted[0] / 1000).toFixed(2)}–${(sorted.at(-1) / 1000).toFixed(2)} s)`,
  );
} finally {
  dev.kill('SIGINT');
}
