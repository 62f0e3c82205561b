#!/usr/bin/env node
import { processIo } from './io.js';
import { createProgram } from './program.js';

try {
  await createProgram(processIo).parseAsync(process.argv);
} catch (err) {
  processIo.err(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
}
