import { spawn } from 'node:child_process';
import { CREATE_EXIT_CODES, CreateBoardbotError } from './errors.js';

/** Runs a command in a directory and resolves with its exit code. */
export type CommandRunner = (command: string, args: readonly string[], cwd: string) => Promise<number>;

/** Runs a command with the terminal's stdio (npm's own progress and errors show as they are). */
export const inheritRunner: CommandRunner = (command, args, cwd) =>
  new Promise((resolve, reject) => {
    // npm is npm.cmd on Windows, which only a shell can run.
    const child = spawn(command, args, { cwd, stdio: 'inherit', shell: process.platform === 'win32' });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

/**
 * Installs the new project's dependencies with `npm install`.
 *
 * @param dir - the project directory
 * @param run - how to run npm
 */
export async function installDependencies(dir: string, run: CommandRunner = inheritRunner): Promise<void> {
  const code = await run('npm', ['install', '--no-audit', '--no-fund'], dir).catch((error: unknown) => {
    throw new CreateBoardbotError(
      'BOARDBOT_CREATE_INSTALL_FAILED',
      `Could not run npm (${error instanceof Error ? error.message : String(error)}). Fix: install Node.js with npm, ` +
        `then run \`npm install\` in ${dir}.`,
      CREATE_EXIT_CODES.failure,
    );
  });
  if (code !== 0) {
    throw new CreateBoardbotError(
      'BOARDBOT_CREATE_INSTALL_FAILED',
      `npm install failed with exit code ${code} (its output is above). The project is written: fix the problem, ` +
        `then run \`npm install\` in ${dir}.`,
      CREATE_EXIT_CODES.failure,
    );
  }
}
