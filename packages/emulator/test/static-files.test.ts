import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { playgroundRoutes } from '../src/playground.js';

const dir = mkdtempSync(join(tmpdir(), 'boardbot-playground-'));
mkdirSync(join(dir, 'built', 'assets'), { recursive: true });
writeFileSync(join(dir, 'built', 'index.html'), '<!doctype html><title>playground</title>');
writeFileSync(join(dir, 'built', 'assets', 'app-1234.js'), 'export {};');
writeFileSync(join(dir, 'secret.txt'), 'outside');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function appFor(root: string) {
  const app = Fastify();
  playgroundRoutes(app, root);
  await app.ready();
  return app;
}

describe('serving the playground', () => {
  it('serves the built page and its assets with cache headers', async () => {
    const app = await appFor(join(dir, 'built'));
    const page = await app.inject('/');
    expect([page.statusCode, page.headers['content-type'], page.headers['cache-control']]).toEqual([
      200,
      'text/html; charset=utf-8',
      'no-cache',
    ]);
    expect(page.body).toContain('<title>playground</title>');
    const asset = await app.inject('/assets/app-1234.js');
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toContain('immutable');
    await app.close();
  });

  it('answers a page saying how to build it when the playground is not built', async () => {
    const app = await appFor(join(dir, 'missing'));
    const page = await app.inject('/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('npm run build');
    await app.close();
  });

  it('never serves files outside the playground directory', async () => {
    const app = await appFor(join(dir, 'built'));
    for (const url of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e%2f..%2fsecret.txt',
    ]) {
      const r = await app.inject(url);
      expect([url, r.statusCode]).toEqual([url, 404]);
      expect(r.body).not.toContain('outside');
    }
    await app.close();
  });
});
