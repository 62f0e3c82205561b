import { spawn } from 'node:child_process';

/**
 * Runs Prometheus's own linter on a scrape: `promtool check metrics` reads the exposition on stdin
 * and prints each problem (naming, missing HELP, bad format). `npm test` makes sure it is installed
 * (scripts/ensure-test-tools.mjs).
 *
 * @param text - the text a `/metrics` answered
 * @returns what promtool printed, and its exit code (0: no problem)
 */
export function promtoolCheck(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(text);
  });
}

/**
 * The value of one sample in a Prometheus text exposition, or 0 when it is absent.
 * @param text - the exposition
 * @param name - the metric name
 * @param labels - labels the sample must carry (others may follow)
 */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const brace = line.indexOf('{');
    const labelText = brace === name.length ? line.slice(brace + 1, line.lastIndexOf('} ')) : '';
    const has = Object.entries(labels).every(([k, v]) => labelText.split(/,(?=\w+=")/).includes(`${k}="${v}"`));
    if (has) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}
