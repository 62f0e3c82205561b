import { GatewayClient, GatewayOptionsError } from '@boardbot/gateway';
import {
  eventually,
  frame,
  headerUnsafeValues,
  messageFrame,
  openStream,
  readyFrame,
  recordingLogger,
  sendError,
  writeThenCut,
} from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { onCleanup, server, TOKEN } from './support/helpers.js';

describe('the token stays secret', () => {
  it('never appears in a log line, an error or an event, whatever goes wrong', async () => {
    const logger = recordingLogger();
    const s = await server((_req, res, n) => {
      if (n === 0) return sendError(res, 503, 'unavailable');
      if (n === 1) return sendError(res, 429, 'rate_limited', { 'Retry-After': '0' });
      if (n >= 4) return sendError(res, 401, 'unauthorized');
      openStream(res);
      if (n === 2) return writeThenCut(res, `${readyFrame(1)}${frame(2, 'message.create', '{"bad":')}data: half`);
      res.end(readyFrame(2, { resumed: true }) + messageFrame(3));
    });
    const seen: unknown[] = [];
    const gw = new GatewayClient({
      token: TOKEN,
      baseUrl: s.baseUrl,
      logger,
      reconnect: { initialDelayMs: 1, maxDelayMs: 5 },
    });
    onCleanup(() => gw.close());
    for (const name of ['dispatch', 'error', 'reconnecting', 'closed', 'connecting', 'gap'] as const) {
      gw.on(name, (x: unknown) => seen.push(x));
    }
    const failure = await gw.connect().then(
      () => new Promise((resolve) => gw.on('closed', ({ reason }) => resolve(reason))),
      (e: unknown) => e,
    );
    expect(failure).toMatchObject({ code: 'BOARDBOT_GATEWAY_UNAUTHORIZED' });
    await eventually(() => expect(gw.state).toBe('closed'));
    const everything = [
      logger.text(),
      ...seen.map((x) =>
        JSON.stringify(x, (_k, v: unknown) =>
          v instanceof Error ? { ...v, message: v.message, stack: v.stack, cause: String(v.cause) } : v,
        ),
      ),
      String((failure as Error).stack),
    ].join('\n');
    expect(logger.lines.length).toBeGreaterThan(5);
    expect(everything).toContain('BOARDBOT_GATEWAY_MALFORMED_EVENT');
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain('SECRET');
  });
});

describe('a token that is not a valid header value', () => {
  it.each(
    headerUnsafeValues(TOKEN),
  )('with %s is refused at construction with a stable code, without showing it', (_what, token) => {
    const error = (() => {
      try {
        new GatewayClient({ token });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(GatewayOptionsError);
    expect(error).toMatchObject({ code: 'BOARDBOT_GATEWAY_INVALID_OPTIONS', fatal: true });
    const e = error as Error;
    expect(`${JSON.stringify({ ...e })} ${e.message} ${e.stack}`).not.toContain(TOKEN);
    expect(e.message).toMatch(/token/);
  });
});
