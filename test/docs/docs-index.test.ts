import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/README.md is the way into the docs, and getting started's "Next" the way on from the first
// bot: each page listed once, no guide or example left out.

const root = new URL('../../', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** The `./page.md` each table row of `markdown` starts with, in order (repeats kept). */
const rowPages = (markdown: string) =>
  [...markdown.matchAll(/^\| \[[^\]]+\]\(\.\/([^)#]+\.md)\)/gm)].map((m) => m[1] as string);

/** The part of `markdown` from the heading `heading` to the next heading of its level or above. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no heading ${heading}`);
  const level = heading.split(' ')[0] as string;
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level.length}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

describe('the docs index', () => {
  it('docs/README.md lists every page of docs/ exactly once in its tables (getting started leads the way in)', () => {
    const index = read('docs/README.md');
    const pages = readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md') && f !== 'README.md' && f !== 'getting-started.md')
      .sort();
    expect([...rowPages(index)].sort()).toEqual(pages);
    expect(index).toContain('**[Getting started](./getting-started.md)**');
  });

  it("getting started's Next links every guide of docs/README.md's Writing a bot, and every example", () => {
    const next = section(read('docs/getting-started.md'), '## Next');
    const guides = rowPages(section(read('docs/README.md'), '## Writing a bot'));
    expect(guides.length).toBeGreaterThan(5);
    for (const guide of guides) expect(next, guide).toContain(`](./${guide})`);
    for (const example of readdirSync(join(root, 'examples'))) {
      expect(next, example).toContain(`](../examples/${example}/README.md)`);
    }
  });
});
