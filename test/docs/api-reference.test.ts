import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCaptured, tempDir } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicEntryPoints } from '../../scripts/api-report.mjs';

// `npm run docs` is TypeDoc with typedoc.config.mjs: this builds the same site into a temp dir. TypeDoc
// fails on any warning there (a `{@link}` to nothing among them); the site must have a page per public
// entry point (API Extractor's list), every page it links to must exist, and the docs page that
// introduces it must list the same entry points.
const root = new URL('../../', import.meta.url).pathname;

describe('the API reference', () => {
  const temp = tempDir('boardbot-api-docs-');
  const out = join(temp.dir, 'site');
  let build: { code: number; output: string };
  beforeAll(async () => {
    build = await runCaptured('npx', ['--no-install', 'typedoc', '--out', out], root);
  }, 300_000);
  afterAll(() => temp.remove());

  it('builds without a warning, a page per public entry point', () => {
    expect(build.code, build.output).toBe(0);
    expect(build.output).not.toMatch(/\[warning\]|\[error\]/);
    const modules = readdirSync(join(out, 'modules')).map((f) => f.replace(/\.html$/, ''));
    const slug = (name: string) => name.replace(/[@/]/g, '_');
    expect(modules.sort()).toEqual(
      publicEntryPoints()
        .map((e) => slug(e.name))
        .sort(),
    );
  });

  it('links only to pages and assets that exist', () => {
    const pages = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'));
    const dead: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const [, href] of readFileSync(join(out, page), 'utf8').matchAll(/(?:href|src)="([^"#?]+)[^"]*"/g)) {
        if (!href || /^[a-z]+:/i.test(href)) continue;
        checked++;
        if (!existsSync(join(out, dirname(page), href))) dead.push(`${page} → ${href}`);
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(dead).toEqual([]);
  });

  it('is introduced by docs/api-reference.md, which lists every entry point', () => {
    const page = readFileSync(join(root, 'docs/api-reference.md'), 'utf8');
    const listed = [...page.matchAll(/^\| `([^`]+)` \|/gm)].map(([, name]) => name);
    expect(listed.sort()).toEqual(
      publicEntryPoints()
        .map((e) => e.name)
        .sort(),
    );
    expect(readFileSync(join(root, 'docs/README.md'), 'utf8')).toContain('(./api-reference.md)');
  });
});
