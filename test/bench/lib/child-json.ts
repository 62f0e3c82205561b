import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Runs `code` in a fresh `node --expose-gc` (an ES module, in the repository's root) and resolves
 * with the JSON line it printed that starts with `{"<key>"`; rejects when it exits non-zero or
 * prints none. The RSS benches measure each subject this way, in a process of its own.
 *
 * @param code - the module's source
 * @param key - the first key of the line to read, e.g. `rss`
 * @param env - extra environment for the child
 */
export function childJson<T>(code: string, key: string, env: Record<string, string> = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', code], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout?.on('data', (d) => {
      out += d.toString();
    });
    proc.on('exit', (c) => {
      const line = out.split('\n').find((l) => l.startsWith(`{"${key}"`));
      if (c !== 0 || !line) reject(new Error(`child exited with ${c}:\n${out}`));
      else resolve(JSON.parse(line) as T);
    });
  });
}
