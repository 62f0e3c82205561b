import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';

// A page that moves or is renamed must not leave dead links behind in the docs or the READMEs.
const root = new URL('../../', import.meta.url).pathname;

function markdown(): string[] {
  const under = (dir: string) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('README.md') || (dir === 'docs' && f.endsWith('.md')))
      .filter((f) => !f.includes('node_modules') && !f.includes('templates'))
      .map((f) => join(root, dir, f));
  return [join(root, 'README.md'), ...under('docs'), ...under('packages'), ...under('examples')];
}

/** The anchors GitHub makes for a page: one per heading (outside code fences), plus explicit `<a id>`s. */
function anchorsOf(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) anchors.add(slugger.slug(heading));
    for (const [, id] of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) if (id) anchors.add(id);
  }
  return anchors;
}

describe('links in the docs', () => {
  it('point at files that exist', () => {
    const dead: string[] = [];
    const files = markdown();
    for (const file of files) {
      for (const [, target] of readFileSync(file, 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (!target || /^[a-z]+:/i.test(target)) continue;
        if (!existsSync(join(dirname(file), target))) dead.push(`${relative(root, file)} → ${target}`);
      }
    }
    expect(files.length).toBeGreaterThan(10);
    expect(dead).toEqual([]);
  });

  it('point at headings that exist, within a page and across pages', () => {
    const dead: string[] = [];
    const checked: string[] = [];
    for (const file of markdown()) {
      for (const [, target, anchor] of readFileSync(file, 'utf8').matchAll(/\]\(([^)#\s]*)#([^)\s]+)\)/g)) {
        if (!anchor || (target && (/^[a-z]+:/i.test(target) || !target.endsWith('.md')))) continue;
        const page = target ? join(dirname(file), target) : file;
        if (!existsSync(page)) continue;
        checked.push(anchor);
        if (!anchorsOf(page).has(decodeURIComponent(anchor)))
          dead.push(`${relative(root, file)} → ${target}#${anchor}`);
      }
    }
    expect(checked.length).toBeGreaterThan(5);
    expect(dead).toEqual([]);
  });
});
