import { createEmulator, type Emulator, type EmulatorUrls } from '@boardbot/emulator';
import { ACTIVITY_EVENTS, ControlClient } from '@boardbot/emulator/control';
import { checkerFor } from '@boardbot/protocol';
import { SseClient } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_EVENT_SCHEMAS } from '../src/control/schemas/activity.js';
import { refusal } from './helpers/control-failure.js';
import { controlApiChecker } from './helpers/openapi-checker.js';

// Real control API answers, over real HTTP through the one client, checked against the control API's
// OpenAPI document: every operation, its successes and its refusals. The activity stream's frames are
// checked against their event schemas. (The emulator's other tests check every control answer they
// see the same way, through the harness.)

let emu: Emulator;
let urls: EmulatorUrls;
const checked = new Set<string>();
const problems: string[] = [];

/** `fetch`, checking every answer against the document on the way. */
const checkingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const url = new URL(String(input));
  const method = init?.method ?? 'GET';
  const result = controlApiChecker.problems({
    method,
    url: `${url.pathname}${url.search}`,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: await response.clone().text(),
  });
  if (result.operationId) checked.add(result.operationId);
  problems.push(...result.problems.map((p) => `${method} ${url.pathname} → ${response.status}: ${p}`));
  return response;
};

beforeAll(async () => {
  emu = await createEmulator({ db: ':memory:', logger: false });
  urls = await emu.listen({ port: 0 });
});
afterAll(() => emu.close());

/** A person invokes `/ping`, which dev-bot registered; the app receives the interaction on its stream. */
async function registerPing(): Promise<void> {
  const res = await fetch(`${urls.apiUrl}/app/commands`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${emu.devToken}`, 'content-type': 'application/json' },
    body: JSON.stringify([{ name: 'ping', description: 'Ping' }]),
  });
  expect(res.status).toBe(200);
}

describe('control API conformance', () => {
  it('answers every operation as its OpenAPI document says, successes and refusals', async () => {
    const control = new ControlClient({ url: urls.controlUrl, adminKey: emu.adminKey, fetch: checkingFetch });
    const UNKNOWN = '00000000-0000-4000-8000-000000000000';
    await control.info();
    const state = await control.state();
    const [alice] = state.users;
    const [general] = state.boards;
    const [devBot] = state.apps;
    if (!alice || !general || !devBot) throw new Error('the default seed is missing');
    await control.users();
    const carol = await control.createUser({ username: 'carol', display_name: 'Carol' });
    await refusal(control.createUser({ username: 'carol' }));
    await control.boards();
    const lunch = await control.createBoard({ name: 'lunch' });
    await control.members(general.id);
    await refusal(control.members(UNKNOWN));
    await control.setMember(lunch.id, carol.id, 'admin');
    await control.setMember(lunch.id, alice.id);
    await refusal(control.setMember(lunch.id, UNKNOWN));
    await control.removeMember(lunch.id, alice.id);
    await control.apps();
    const { app } = await control.createApp({ name: 'helper' });
    await control.rotateToken(app.id);
    await refusal(control.rotateToken(UNKNOWN));
    await control.install(app.id, lunch.id);
    await refusal(control.install(UNKNOWN, lunch.id));
    await control.uninstall(app.id, lunch.id);
    const said = await control.postMessage(general.id, { user_id: alice.id, content: 'hello' });
    await control.postMessage(general.id, { webhook_name: 'ci', content: 'build green' });
    await refusal(control.postMessage(general.id, { user_id: carol.id, content: 'not a member' }));
    await control.editMessage(general.id, said.id, 'hello again');
    await refusal(control.editMessage(general.id, UNKNOWN, 'x'));
    await control.messages(general.id, { limit: 1 });
    await control.messages(general.id, { before: said.seq });
    expect((await control.why(general.id, said.id)).calls).toEqual([]);
    await refusal(control.why(general.id, UNKNOWN));
    await control.deleteMessage(general.id, said.id);
    await registerPing();
    const interaction = await control.invoke({ board_id: general.id, user_id: alice.id, command: 'ping' });
    await refusal(control.invoke({ board_id: general.id, user_id: alice.id, command: 'nope' }));
    await control.interactions({ boardId: general.id, limit: 5 });
    await control.interaction(interaction.id);
    await refusal(control.interaction(UNKNOWN));
    expect((await control.wait(interaction.id, { answers: 1, timeoutMs: 0 })).status).toBe('pending');
    const invoked = { board_id: general.id, user_id: alice.id, command: 'ping' };
    expect((await control.invokeAndWait(invoked, { timeoutMs: 0 })).status).toBe('pending');
    await refusal(new ControlClient({ url: urls.url, adminKey: 'wrong', fetch: checkingFetch }).state());
    await control.seed();
    await control.reset();

    expect(problems).toEqual([]);
    const streamed = ['openActivityStream'];
    expect([...checked].sort()).toEqual(controlApiChecker.operationIds.filter((id) => !streamed.includes(id)).sort());
  });

  it('sends activity frames that match their event schemas, for every event', async () => {
    const control = new ControlClient({ url: urls.controlUrl, adminKey: emu.adminKey });
    await control.seed();
    const stream = await SseClient.open(`${urls.controlUrl}/events`, emu.adminKey);
    const gateway = await SseClient.open(`${urls.apiUrl}/gateway`, emu.devToken);
    const { users, boards } = await control.state();
    const alice = users.find((u) => u.username === 'alice');
    const general = boards.find((b) => b.name === 'general');
    if (!alice || !general) throw new Error('the default seed is missing');

    await registerPing();
    const said = await control.postMessage(general.id, { user_id: alice.id, content: 'hi' });
    await control.editMessage(general.id, said.id, 'hi!');
    await control.deleteMessage(general.id, said.id);
    await control.invoke({ board_id: general.id, user_id: alice.id, command: 'ping' });
    // The app answers with the token its own stream carried, as a bot does.
    let event = await gateway.nextEvent();
    while (event.event !== 'interaction.create') event = await gateway.nextEvent();
    const token = (JSON.parse(event.data) as { interaction: { token: string } }).interaction.token;
    const answered = await fetch(`${urls.apiUrl}/interactions/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'pong' }),
    });
    expect(answered.status).toBe(200);
    await control.createUser({ username: 'dave' });
    await control.reset();

    const seen = new Set<string>();
    const wrong: string[] = [];
    while (!seen.has('reset')) {
      const frame = await stream.nextEvent();
      const schema = ACTIVITY_EVENT_SCHEMAS[frame.event as keyof typeof ACTIVITY_EVENT_SCHEMAS];
      const result = schema ? checkerFor(schema).check(JSON.parse(frame.data)) : undefined;
      if (!result?.ok) wrong.push(`${frame.event}: ${JSON.stringify(result ?? 'no schema')}`);
      seen.add(frame.event);
    }
    stream.destroy();
    gateway.destroy();
    expect(wrong).toEqual([]);
    expect([...seen].sort()).toEqual([...ACTIVITY_EVENTS].sort());
  });

  it('catches control answers that do not conform', () => {
    const json = { 'content-type': 'application/json; charset=utf-8' };
    const check = (method: string, url: string, status: number, body: unknown) =>
      controlApiChecker.problems({ method, url, status, headers: json, body: JSON.stringify(body) }).problems;
    const info = { version: '1', api_url: 'a', playground_url: 'p', limits: { contentLength: 4000 } };
    expect(check('GET', '/_emulator/v1/info', 200, info)).toEqual([]);
    expect(check('GET', '/_emulator/v1/info', 200, { ...info, limits: { contentLength: 'many' } })).not.toEqual([]);
    expect(check('GET', '/_emulator/v1/info', 201, info)).not.toEqual([]);
    const unknownBoard = { error: { code: 'unknown_board', message: 'm' } };
    expect(check('GET', `/_emulator/v1/boards/${'0'.repeat(8)}/members`, 404, unknownBoard)).toEqual([]);
    expect(check('GET', '/_emulator/v1/interactions', 404, unknownBoard)).not.toEqual([]);
    expect(check('GET', '/_emulator/v1/state', 200, { users: [], boards: [] })).not.toEqual([]);
  });
});
