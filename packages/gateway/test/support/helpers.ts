import { join } from 'node:path';
import type { EmulatorOptions } from '@boardbot/emulator';
import {
  GatewayClient,
  type GatewayClientOptions,
  type GatewayDispatch,
  type GatewayError,
  type GatewayReconnectingInfo,
} from '@boardbot/gateway';
import { type LoopbackServer, type Script, startLoopbackServer, tempDir } from '@boardbot/test-support';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import { onTestFinished } from 'vitest';

/** The token every test uses; tests assert it never shows up in a log line or an error. */
export const TOKEN = 'tok_SECRET_do_not_log_4f9a';

/**
 * Runs `fn` after the current test, last registered first. (Not a module-level `afterEach`: test
 * files share this module in their worker, and its hook would belong to the first file only.)
 */
export function onCleanup(fn: () => Promise<void>): void {
  onTestFinished(fn);
}

/** A client with fast reconnects for tests, closed after the test. */
export function testClient(baseUrl: string, extra: Partial<GatewayClientOptions> = {}): GatewayClient {
  const gw = new GatewayClient({ token: TOKEN, baseUrl, reconnect: { initialDelayMs: 5, maxDelayMs: 50 }, ...extra });
  onCleanup(() => gw.close());
  return gw;
}

/** Records what a client emits. */
export function record(gw: GatewayClient): {
  events: GatewayDispatch[];
  ids: () => string[];
  reconnects: GatewayReconnectingInfo[];
  errors: GatewayError[];
} {
  const events: GatewayDispatch[] = [];
  const reconnects: GatewayReconnectingInfo[] = [];
  const errors: GatewayError[] = [];
  gw.on('dispatch', (e) => events.push(e));
  gw.on('reconnecting', (r) => reconnects.push(r));
  gw.on('error', (e) => errors.push(e));
  return { events, ids: () => events.map((e) => `${e.name === 'ready' ? 'R' : ''}${e.id}`), reconnects, errors };
}

/**
 * Starts a scripted server (the test-support loopback server) that is closed after the current test.
 * Its idle connections close after Node's usual 5 s, so the pool of the global `fetch` (which a
 * test cannot close) has let go of them by the time a test counts the sockets left behind.
 *
 * @param script - Answers each request.
 */
export async function server(script: Script): Promise<LoopbackServer> {
  const s = await startLoopbackServer(script, { keepAliveTimeoutMs: 5_000 });
  onCleanup(() => s.close());
  return s;
}

/**
 * Starts a seeded emulator (the test-support one) whose dev-bot token is {@link TOKEN}, closed after
 * the current test.
 *
 * @param options - Emulator options (a `db` file to restart on, a keep-alive interval...).
 * @param port - A fixed port (to restart on the same address); 0 picks a free one.
 */
export async function startEmulator(options: EmulatorOptions = {}, port = 0): Promise<SeededEmulator> {
  const em = await startSeededEmulator({ devToken: TOKEN, ...options }, port);
  onCleanup(() => em.close());
  return em;
}

/** A fresh temp directory with a database file path in it, removed after the test. */
export function tempDb(): string {
  const temp = tempDir('boardbot-gateway-');
  onCleanup(async () => temp.remove());
  return join(temp.dir, 'emulator.db');
}
