// `npm run dev`, the quick start: the emulator with its playground page and the dice bot
// (examples/dice), on the embedded defaults. It builds what is missing (the playground page), then
// runs `boardbot dev` on the dice bot in this process: the emulator keeps its state in
// examples/dice/.boardbot/, and the bot is rebuilt and restarted when its sources change. Extra
// arguments go to `boardbot dev`, e.g. `npm run dev -- --port 0` or `-- --db :memory:`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = `${root}packages/cli/dist/index.js`;
const dice = `${root}examples/dice`;
const playground = `${root}packages/emulator/dist/playground/index.html`;

if (!existsSync(cli)) {
  console.error('The CLI is not built: run `npm run dev` (it builds it first), or `npx tsc -b packages/cli`.');
  process.exit(1);
}
// BOARDBOT_SKIP_PLAYGROUND_BUILD=1 skips it: the quick-start test needs no page, and must not race
// the playground's own tests building the same directory.
if (!existsSync(playground) && process.env.BOARDBOT_SKIP_PLAYGROUND_BUILD !== '1') {
  console.log('Building the playground page (once)...');
  const vite = spawnSync(
    process.execPath,
    [`${root}node_modules/vite/bin/vite.js`, 'build', '--config', 'packages/emulator/playground/vite.config.ts'],
    { cwd: root, stdio: 'inherit' },
  );
  if (vite.status !== 0) {
    console.error('The playground build failed (output above); the emulator runs without its page.');
  }
}

// In this process rather than a child: Ctrl-C then reaches the CLI once, and it stops everything.
const { processIo, runCli } = await import(cli);
console.log('boardbot quick start: the dice bot (examples/dice) on the emulator. Try /roll in the playground.');
process.exitCode = await runCli(['node', 'boardbot', 'dev', '--cwd', dice, ...process.argv.slice(2)], processIo);
