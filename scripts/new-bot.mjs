// From a clone of this repository to a new bot in one command (docs/getting-started.md):
//
//   git clone <repository> boardbot && npm --prefix boardbot run new-bot -- my-bot
//
// Installs the clone when it has no node_modules yet, builds what a new project links to (the
// packages, and the emulator's playground page when it is missing), then runs create-boardbot with
// `--local` pointing here. The directory is relative to where the command was typed (INIT_CWD).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error(`error: \`${command} ${args.join(' ')}\` failed in ${root} (its output is above).`);
    process.exit(1);
  }
}

if (!existsSync(join(root, 'node_modules'))) run('npm', ['install', '--no-audit', '--no-fund']);
// tsc -b builds the packages the new project links to (and what they depend on); a no-op when up to date.
run(process.execPath, [
  join(root, 'node_modules/typescript/bin/tsc'),
  '-b',
  'packages/cli',
  'packages/testing',
  'packages/create-boardbot',
]);
if (!existsSync(join(root, 'packages/emulator/dist/playground/index.html'))) run('npm', ['run', 'build:playground']);

const create = await import(pathToFileURL(join(root, 'packages/create-boardbot/dist/index.js')).href);
const code = await create.runCreate([...process.argv.slice(2), '--local', root], {
  cwd: process.env.INIT_CWD ?? process.cwd(),
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
process.exit(code);
