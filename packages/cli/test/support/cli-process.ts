import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { collectOutput } from './child-output.js';

/** The built CLI (`npx tsc -b` first: the tests that spawn it call `buildProjects`). */
export const CLI_BIN = join(fileURLToPath(new URL('../../../../', import.meta.url)), 'packages/cli/dist/bin.js');

/**
 * `env` as a person's shell has it when they type the command: without what npm puts there for the
 * script that runs the tests (`npm test` sets `npm_lifecycle_event=test`), which the CLI's advice
 * reads to word its fixes for an npm script.
 *
 * @param env - an environment
 */
export function typedByHand(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !/^npm_(lifecycle_|command$)/.test(k)));
}

/** The built `boardbot` as a real process, with its output and its end. */
export interface CliProcess {
  readonly proc: ChildProcess;
  readonly pid: number;
  /** Its stdout and stderr so far, interleaved. */
  output(): string;
  /** Resolves with its exit code (or the signal that ended it). */
  readonly exited: Promise<number | NodeJS.Signals>;
  /** Resolves with the first match of `pattern` in its output; rejects, with the output, if it exits first. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** Sends a signal; resolves once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<number | NodeJS.Signals>;
}

/**
 * Runs `boardbot <args>` as a child process for the running test: it is killed (SIGKILL) when the
 * test finishes, pass or fail, if it still runs.
 *
 * @param args - the command and its flags
 * @param cwd - where it runs
 * @param env - added to this process's environment
 */
export function spawnCli(args: readonly string[], cwd: string, env: Record<string, string> = {}): CliProcess {
  const proc = spawn(process.execPath, [CLI_BIN, ...args], {
    cwd,
    env: { ...typedByHand(process.env), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collectOutput(proc);
  const exited = new Promise<number | NodeJS.Signals>((resolve) =>
    proc.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const running = () => proc.exitCode === null && proc.signalCode === null;
  onTestFinished(async () => {
    if (running()) proc.kill('SIGKILL');
    await exited;
  });
  return {
    proc,
    pid: proc.pid as number,
    output,
    exited,
    waitFor(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output());
          if (match) {
            off();
            resolve(match);
          }
        };
        const ended = (code: number | null, signal: NodeJS.Signals | null) => {
          off();
          reject(new Error(`boardbot ${args.join(' ')} exited (${code ?? signal}) before ${pattern}:\n${output()}`));
        };
        const off = () => {
          proc.stdout?.off('data', check);
          proc.stderr?.off('data', check);
          proc.off('exit', ended);
        };
        proc.stdout?.on('data', check);
        proc.stderr?.on('data', check);
        proc.once('exit', ended);
        check();
        if (!running()) ended(proc.exitCode, proc.signalCode);
      });
    },
    async stop(signal = 'SIGTERM') {
      if (running()) proc.kill(signal);
      return exited;
    },
  };
}

/**
 * The flags a CLI error's fix says to add, written in it as `` add `--db x --port 0` ``.
 *
 * @param output - the error output
 */
export function advisedFlags(output: string): string[] {
  const flags = /add `(--[^`]+)`/.exec(output)?.[1];
  if (!flags) throw new Error(`no flags to add in:\n${output}`);
  return flags.split(' ');
}
