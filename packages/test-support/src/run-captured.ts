import { spawn } from 'node:child_process';

/**
 * The environment of a new user's shell: this one without the variables the outer `npm test` and
 * vitest set (npm_config_*, VITEST_*...), which would leak into a child's own npm and vitest.
 */
export function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(npm_|VITEST|NODE_OPTIONS$|NODE_ENV$|INIT_CWD$|TEST$)/i.test(k)),
  );
}

/**
 * Runs a command to its end with {@link cleanEnv}; resolves with its exit code and its output
 * (stdout and stderr, interleaved as they came).
 * @param command - the program
 * @param args - its arguments
 * @param cwd - where it runs
 * @param env - its environment. @defaultValue {@link cleanEnv}
 */
export function runCaptured(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = cleanEnv(),
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}
