import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { TestPlatform } from './support/platform.js';

// Finding 8 of issue 29: the health endpoint answered any Host, so a page that rebinds its own name to
// 127.0.0.1 could read /metrics. It answers IP addresses, localhost and the names it is given.

let platform: TestPlatform | undefined;
let stopBot: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stopBot?.();
  await platform?.close();
  platform = undefined;
  stopBot = undefined;
});

/** GET `path` from the loopback port with `host` as the Host header (none when undefined). */
function getAs(url: string, path: string, host: string | undefined): Promise<{ status: number; body: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, setHost: false, headers: host ? { host } : {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function healthUrl(health: { port: number; allowedHosts?: string[] }): Promise<string> {
  platform = await TestPlatform.start();
  const { bot } = platform.bot({ handlers: [], health });
  stopBot = async () => {
    await bot.stop();
  };
  await bot.start();
  return bot.healthUrl ?? '';
}

describe('the Host names of the health endpoint', () => {
  it('refuses a foreign name on every path, in the envelope, and no Host at all', async () => {
    const url = await healthUrl({ port: 0 });
    for (const path of ['/metrics', '/healthz', '/readyz', '/nope']) {
      for (const host of ['evil.example', 'evil.example:9464', 'localhost.evil.example', undefined]) {
        const answer = await getAs(url, path, host);
        expect([path, host, answer.status]).toEqual([path, host, 400]);
        const { error } = JSON.parse(answer.body) as { error: { code: string; message: string } };
        expect(error.code).toBe('bad_request');
        expect(error.message).toMatch(host ? /allowedHosts.*BOARDBOT_HEALTH_ALLOWED_HOSTS/ : /Missing Host/);
        expect(answer.body).not.toContain('boardbot_');
      }
    }
  });

  it('answers IP addresses (what probes and scrapers send), localhost and its listen address, any port', async () => {
    const url = await healthUrl({ port: 0 });
    for (const host of ['127.0.0.1:9464', '10.1.2.3:9464', '[::1]:9464', '[fd00::5]', 'localhost', 'LOCALHOST.']) {
      const answer = await getAs(url, '/metrics', host);
      expect([host, answer.status]).toEqual([host, 200]);
      expect(answer.body).toContain('boardbot_ready');
    }
  });

  it('answers the names of allowedHosts, and any name with *', async () => {
    const url = await healthUrl({ port: 0, allowedHosts: ['bot', 'Metrics.Internal.'] });
    expect((await getAs(url, '/healthz', 'bot:9464')).status).toBe(200);
    expect((await getAs(url, '/healthz', 'metrics.internal')).status).toBe(200);
    expect((await getAs(url, '/healthz', 'other.internal')).status).toBe(400);
    await stopBot?.();
    await platform?.close();
    const any = await healthUrl({ port: 0, allowedHosts: ['*'] });
    expect((await getAs(any, '/healthz', 'other.internal')).status).toBe(200);
  });
});
