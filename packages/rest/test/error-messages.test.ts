import { vacantPort } from '@boardbot/test-support';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from './support/client-for.js';

// The words a newcomer reads when the base URL or the token is wrong (issue 30): each message names the
// URL it tried and says the fix once, without naming an option the user never set.

let fx: SeededEmulator;
beforeAll(async () => {
  fx = await startSeededEmulator();
});
afterAll(async () => {
  await fx?.close();
});

const messageOf = (p: Promise<unknown>) =>
  p.then(
    () => 'no error',
    (e: unknown) => (e as Error).message,
  );

describe('the REST client’s messages', () => {
  it('a 404 of a base URL without /api/v1 names the full URL and suggests the /api/v1 base', async () => {
    const origin = new URL(fx.apiUrl).origin;
    const client = clientFor({ baseUrl: origin }, { token: fx.token, retries: 0 });
    expect(await messageOf(client.getApp())).toBe(
      `GET /app (${origin}/app) failed with 404 not_found: No route GET /app. The base URL ${origin} is not ` +
        `the platform's API: it ends in /api/v1, e.g. ${origin}/api/v1 (set it with BOARDBOT_API_URL).`,
    );
  });

  it('a 404 under a base URL that already ends in /api/v1 does not suggest it again', async () => {
    const base = `${fx.apiUrl.replace(/\/api\/v1\/?$/, '')}/prefix/api/v1`;
    const client = clientFor({ baseUrl: base }, { token: fx.token, retries: 0 });
    expect(await messageOf(client.getApp())).toBe(
      `GET /app (${base}/app) failed with 404 not_found: No route GET /prefix/api/v1/app. Check the base URL ` +
        `${base} (set it with BOARDBOT_API_URL): the platform's API is not there.`,
    );
  });

  it('a refused connection names the URL and ends with a full stop, never naming baseUrl', async () => {
    const base = `http://127.0.0.1:${await vacantPort()}/api/v1`;
    const client = clientFor({ baseUrl: base }, { token: fx.token, retries: 0 });
    expect(await messageOf(client.getApp())).toBe(
      `GET /app (${base}/app) failed: network error ECONNREFUSED (1 attempt(s)). Check that the platform is ` +
        'running at that address.',
    );
  });

  it('a 401 says to check the token once', async () => {
    const client = clientFor({ baseUrl: fx.apiUrl }, { token: 'not-a-token', retries: 0 });
    expect(await messageOf(client.getApp())).toBe(
      'GET /app failed with 401 unauthorized: Unknown app token. Check the app token (BOARDBOT_TOKEN, or the ' +
        '`token` option you gave): it is missing, wrong or revoked.',
    );
  });
});
