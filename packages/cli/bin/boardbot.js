#!/usr/bin/env node
// The `boardbot` command. This file is in the source tree, so `npm install` in a clone links it
// before anything is built: npm links a bin only if its file exists, and with the compiled
// `dist/bin.js` as the bin, `npx boardbot` in a fresh clone asked the public registry for a package
// named `boardbot` instead. It runs the compiled CLI, or says how to build it.
import { existsSync } from 'node:fs';

const built = new URL('../dist/bin.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write(
    'boardbot: the CLI is not built yet (no packages/cli/dist): run `npm run build` in the boardbot repository ' +
      '(or `npx tsc -b packages/cli`), then run this command again.\n',
  );
  process.exitCode = 1;
}
