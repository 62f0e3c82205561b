import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

// Static imports that stay in the JavaScript (not `import type`, which is erased); `await import(...)`
// is how the bot loads its health module on demand.
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\s)[^;]*?from\s+'([^']+)'/gms;

/** Every module `entry` loads when imported, and the packages they import. */
function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, target = ''] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (target.startsWith('.')) visit(resolve(dirname(file), target.replace(/\.js$/, '.ts')));
      else packages.add(target);
    }
  };
  visit(entry);
  return { files, packages };
}

describe('the metrics module', () => {
  it('is not loaded by importing @boardbot/core: only a bot with health options imports it', () => {
    const { files, packages } = staticGraph(resolve(src, 'index.ts'));
    expect(packages).not.toContain('prom-client');
    expect(packages).not.toContain('node:http');
    expect([...files].some((f) => f.endsWith('bot-health.ts') || f.endsWith('bot-metrics.ts'))).toBe(false);
    // The check itself sees the module when it is reached.
    expect(staticGraph(resolve(src, 'health/bot-health.ts')).packages).toContain('prom-client');
  });
});
