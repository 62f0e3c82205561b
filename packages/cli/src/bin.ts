#!/usr/bin/env node
import { processIo } from './io.js';
import { runCli } from './run.js';

// runCli prints every error once and maps it to a documented exit code (see EXIT_CODES).
process.exitCode = await runCli(process.argv, processIo);
