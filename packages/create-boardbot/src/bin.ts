#!/usr/bin/env node
import { runCreate } from './run.js';

process.exitCode = await runCreate(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  cwd: process.cwd(),
});
