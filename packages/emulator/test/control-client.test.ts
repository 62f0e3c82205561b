import { createEmulator, type Emulator, type EmulatorUrls } from '@boardbot/emulator';
import {
  CONTROL_ERROR_CODES,
  ControlApiError,
  ControlClient,
  ControlOptionsError,
  ControlUnreachableError,
  isUnauthorized,
} from '@boardbot/emulator/control';
import { type Script, vacantPort } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, failureAgainst } from './helpers/control-failure.js';

// The control API client against a real emulator on loopback; what an emulator never answers (a
// proxy's page, an echoed key, nothing at all) comes from small loopback servers.

let emu: Emulator;
let urls: EmulatorUrls;
let control: ControlClient;
beforeAll(async () => {
  emu = await createEmulator({ db: ':memory:', logger: false });
  urls = await emu.listen({ port: 0 });
  control = new ControlClient({ url: urls.controlUrl, adminKey: emu.adminKey });
});
afterAll(() => emu.close());

/** A server that answers every request with `status` and an HTML page, as a proxy or a web server would. */
const htmlPage =
  (status: number, html: string): Script =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html' });
    res.end(html);
  };

describe('ControlClient', () => {
  it('takes the emulator origin or its control API URL, with or without a trailing slash', async () => {
    for (const url of [urls.url, `${urls.url}/`, urls.controlUrl, `${urls.controlUrl}/`]) {
      const client = new ControlClient({ url, adminKey: emu.adminKey });
      expect(client.baseUrl).toBe(urls.controlUrl);
      expect((await client.info()).api_url).toBe(urls.apiUrl);
    }
  });

  it('turns a refusal into ControlApiError: stable code, status, the platform code and the details', async () => {
    const { users, boards } = await control.state();
    const alice = users.find((u) => u.username === 'alice');
    const error = await failure(
      control.invoke({ board_id: boards[0]?.id ?? '', user_id: alice?.id ?? '', command: 'nope' }),
    );
    expect(error).toBeInstanceOf(ControlApiError);
    expect(error).toMatchObject({
      code: 'BOARDBOT_CONTROL_API_ERROR',
      name: 'ControlApiError',
      method: 'POST',
      path: '/interactions',
      status: 400,
      apiCode: 'validation_failed',
      details: [{ path: '/command', message: expect.any(String) }],
    });
    expect((error as Error).message).toMatch(
      /^POST \/interactions answered 400 validation_failed: .*\n {2}- \/command: /,
    );
    expect(CONTROL_ERROR_CODES).toContain((error as ControlApiError).code);
  });

  it('shows the query of a call in its error, and never the admin key', async () => {
    const error = await failure(control.wait('not-a-uuid', { timeoutMs: 10 }));
    expect(error).toMatchObject({
      status: 400,
      apiCode: 'validation_failed',
      path: '/interactions/not-a-uuid/wait?timeout_ms=10',
    });
    const wrong = await failure(new ControlClient({ url: urls.url, adminKey: 'a-wrong-admin-key' }).state());
    expect(wrong).toMatchObject({ status: 401, apiCode: 'unauthorized' });
    expect(isUnauthorized(wrong)).toBe(true);
    expect(`${(wrong as Error).message} ${(wrong as Error).stack}`).not.toContain('a-wrong-admin-key');
  });

  it('hides the admin key when whatever answers echoes it', async () => {
    const echo: Script = (req, res) => {
      const auth = req.headers.authorization ?? '';
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { code: 'forbidden', message: `no: ${auth}`, details: [{ path: auth, message: auth }] },
        }),
      );
    };
    const error = await failureAgainst(echo, (client) => client.state(), 's3cret-key');
    expect(error).toMatchObject({ status: 403, apiCode: 'forbidden', serverMessage: 'no: Bearer <admin key>' });
    expect(JSON.stringify(error)).not.toContain('s3cret-key');
    expect((error as Error).message).not.toContain('s3cret-key');
  });

  it('reads an answer that is not the envelope (a proxy page) as http_<status>', async () => {
    const error = await failureAgainst(htmlPage(502, '<html>Bad gateway</html>'), (client) => client.state());
    expect(error).toMatchObject({
      code: 'BOARDBOT_CONTROL_API_ERROR',
      status: 502,
      apiCode: 'http_502',
      details: [],
    });
  });

  it('refuses a successful answer that is not JSON', async () => {
    const error = await failureAgainst(htmlPage(200, '<html>Welcome</html>'), (client) => client.info());
    expect(error).toMatchObject({ code: 'BOARDBOT_CONTROL_API_ERROR', status: 200, apiCode: 'http_200' });
  });

  it('says the emulator is unreachable when nothing answers, without the key', async () => {
    const origin = `http://127.0.0.1:${await vacantPort()}`;
    const error = await failure(new ControlClient({ url: origin, adminKey: 'unreachable-key' }).state());
    expect(error).toBeInstanceOf(ControlUnreachableError);
    expect(error).toMatchObject({ code: 'BOARDBOT_CONTROL_UNREACHABLE', method: 'GET', path: '/state' });
    expect((error as Error).message).toContain(origin);
    expect((error as Error).message).toContain('(ECONNREFUSED)');
    expect((error as Error).message).not.toContain('unreachable-key');
  });

  it('refuses an admin key that cannot be a header value when built, without showing the key', () => {
    // fetch would refuse it later with a TypeError quoting the header, key included, read as "unreachable".
    const build = () => new ControlClient({ url: urls.url, adminKey: 'stray-newline-key\n' });
    expect(build).toThrow(ControlOptionsError);
    expect(build).toThrow(expect.objectContaining({ code: 'BOARDBOT_CONTROL_INVALID_OPTIONS' }));
    expect(build).not.toThrow(/stray-newline-key/);
  });

  it("lets an injected fetch's own error through as it is", async () => {
    const own = new Error('closed by its owner');
    const client = new ControlClient({ url: urls.url, adminKey: emu.adminKey, fetch: () => Promise.reject(own) });
    expect(await failure(client.state())).toBe(own);
  });

  it('gives the activity stream URL with the key in its query, for EventSource', async () => {
    const response = await fetch(control.eventsUrl());
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('event: ready')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
  });
});
