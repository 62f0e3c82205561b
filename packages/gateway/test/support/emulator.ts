import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, type Emulator, type EmulatorOptions } from '@boardbot/emulator';
import type { Board, Message, UserProfile } from '@boardbot/protocol';
import { Agent, type Dispatcher, fetch } from 'undici';
import { onCleanup, TOKEN } from './helpers.js';

/** The seeded records the tests use. */
export interface Seed {
  general: Board;
  random: Board;
  alice: UserProfile;
  bob: UserProfile;
  appId: string;
}

/** A listening emulator with a control-API helper. */
export interface RunningEmulator {
  emu: Emulator;
  apiUrl: string;
  port: number;
  seed: Seed;
  /** A control API call as the admin; returns the parsed JSON (or undefined for 204). */
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** An app API call with the app token. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** A person posts on a board. */
  post(board: Board, user: UserProfile, content: string): Promise<Message>;
}

/** A fresh temp directory with a database file path in it, removed after the test. */
export function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'boardbot-gateway-'));
  onCleanup(async () => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'emulator.db');
}

async function call<T>(dispatcher: Dispatcher, url: string, method: string, bearer: string, body: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${bearer}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const init: Parameters<typeof fetch>[1] = { method, headers, dispatcher };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await fetch(url, init);
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * Starts an emulator on 127.0.0.1 with the default seed, whose dev-bot token is the tests' TOKEN,
 * and closes it after the test.
 *
 * @param options - Emulator options (a `db` file to restart on, a keep-alive interval...).
 * @param port - A fixed port (to restart on the same address); 0 picks a free one.
 */
export async function startEmulator(options: EmulatorOptions = {}, port = 0): Promise<RunningEmulator> {
  const emu = await createEmulator({ db: ':memory:', seed: true, devToken: TOKEN, logger: false, ...options });
  onCleanup(() => emu.close());
  const urls = await emu.listen({ host: '127.0.0.1', port });
  // One connection pool per emulator: a later emulator on the same port must not be sent a request
  // on a kept-alive socket of this one.
  const agent = new Agent();
  onCleanup(() => agent.close());
  const control = <T>(method: string, path: string, body?: unknown) =>
    call<T>(agent, `${urls.controlUrl}${path}`, method, emu.adminKey, body);
  const api = <T>(method: string, path: string, body?: unknown) =>
    call<T>(agent, `${urls.apiUrl}${path}`, method, TOKEN, body);
  const state = await control<{ users: UserProfile[]; boards: Board[]; apps: Array<{ id: string; name: string }> }>(
    'GET',
    '/state',
  );
  const board = (name: string) => state.boards.find((b) => b.name === name) as Board;
  const user = (name: string) => state.users.find((u) => u.username === name) as UserProfile;
  const seed: Seed = {
    general: board('general'),
    random: board('random'),
    alice: user('alice'),
    bob: user('bob'),
    appId: (state.apps.find((a) => a.name === 'dev-bot') as { id: string }).id,
  };
  return {
    emu,
    apiUrl: urls.apiUrl,
    port: Number(new URL(urls.url).port),
    seed,
    control,
    api,
    post: (b, u, content) => control<Message>('POST', `/boards/${b.id}/messages`, { user_id: u.id, content }),
  };
}
