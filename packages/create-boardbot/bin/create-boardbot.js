#!/usr/bin/env node
// The `create-boardbot` command. This file is in the source tree, so `npm install` in a clone links
// it before anything is built (npm links a bin only if its file exists): `npx create-boardbot` in a
// clone then runs this repository's scaffolder, never a package of that name from the registry.
import { existsSync } from 'node:fs';

const built = new URL('../dist/bin.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write(
    'create-boardbot: not built yet (no packages/create-boardbot/dist): run `npm run build` in the boardbot ' +
      'repository (or `npx tsc -b packages/create-boardbot`), then run this command again.\n',
  );
  process.exitCode = 1;
}
