import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator } from '@boardbot/emulator';
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

describe('serving the playground with @fastify/static', () => {
  it('answers a range request with 206 and the asked bytes, and revalidates with an ETag', async () => {
    const app = await appFor(join(dir, 'built'));
    const part = await app.inject({ url: '/assets/app-1234.js', headers: { range: 'bytes=0-5' } });
    expect([part.statusCode, part.body, part.headers['content-range']]).toEqual([206, 'export', 'bytes 0-5/10']);
    const full = await app.inject('/assets/app-1234.js');
    expect(full.headers.etag).toEqual(expect.any(String));
    const again = await app.inject({
      url: '/assets/app-1234.js',
      headers: { 'if-none-match': String(full.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    await app.close();
  });

  it('refuses a .. traversal to a file that exists (the package.json), raw or encoded, with the envelope 404', async () => {
    // The playground directory is packages/emulator/dist/playground: ../../package.json exists.
    const emu = await createEmulator({ db: ':memory:', logger: false });
    const { url } = await emu.listen({ port: 0 });
    try {
      for (const path of [
        '/../../package.json',
        '/assets/../../../package.json',
        '/%2e%2e/%2e%2e/package.json',
        '/..%2f..%2fpackage.json',
        '/..%5c..%5cpackage.json',
      ]) {
        // Sent raw: fetch would resolve the dots before sending.
        const answer = await rawGet(url, path);
        expect([path, answer.status]).toEqual([path, 404]);
        expect(JSON.parse(answer.body).error.code).toBe('not_found');
        expect(answer.body).not.toContain('@boardbot/emulator');
      }
    } finally {
      await emu.close();
    }
  });
});

async function rawGet(origin: string, path: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(origin);
  const socket = connect(Number(port), '127.0.0.1');
  socket.end(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
  let text = '';
  for await (const chunk of socket) text += chunk;
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body };
}
