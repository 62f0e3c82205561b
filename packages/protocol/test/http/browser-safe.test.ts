import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// `@boardbot/protocol/http` is bundled into the playground page, so it must run in a browser: no Node
// module, no Node global, and nothing from the rest of the package at run time (that would pull
// TypeBox and the schemas into the page).
const dir = new URL('../../src/http/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

describe('@boardbot/protocol/http runs in a browser', () => {
  it.each(files)('%s imports no Node module and uses no Node global', (file) => {
    const source = readFileSync(new URL(file, dir), 'utf8');
    const imports = [...source.matchAll(/^(?:import|export)\s+(type\s+)?[^'"]*from\s+'([^']+)'/gm)].map((m) => ({
      typeOnly: m[1] !== undefined,
      from: m[2] as string,
    }));
    for (const { typeOnly, from } of imports) {
      if (typeOnly) continue;
      expect(from, `${file} imports ${from} at run time`).toMatch(/^\.\/[a-z-]+\.js$/);
    }
    const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(code).not.toMatch(/\b(Buffer|process|require|__dirname)\b|node:/);
  });

  it('finds the module files', () => {
    expect(files).toContain('index.ts');
  });
});
