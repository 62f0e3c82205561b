import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/architecture.md draws core's layers, and .dependency-cruiser.cjs enforces them: a folder added
// to core must be placed in both, or the page and the check would stop describing the code.
const root = new URL('../../', import.meta.url).pathname;
const folders = readdirSync(join(root, 'packages/core/src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe("core's folders", () => {
  it('are each named in the layer map of docs/architecture.md', () => {
    const page = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    const section = page.slice(page.indexOf('## Core, by feature'), page.indexOf('### The policy chain'));
    const map = section.slice(section.indexOf('```text'), section.indexOf('```\n', section.indexOf('```text') + 7));
    expect(folders.filter((folder) => !map.includes(`${folder}/`))).toEqual([]);
  });

  it('each have a layer in the dependency rules', () => {
    const rules = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as {
      forbidden: { name: string }[];
    };
    const layered = readFileSync(join(root, '.dependency-cruiser.cjs'), 'utf8');
    expect(rules.forbidden.map((r) => r.name)).toContain('no-circular');
    expect(folders.filter((folder) => !layered.includes(`'${folder}'`))).toEqual([]);
  });
});
