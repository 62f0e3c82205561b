import { EventEmitter } from 'node:events';
import { Command, type CommandContext, Cooldown, createHost, defineBot, type Host } from '@boardbot/core';
import { Cooldowns } from '@boardbot/core/internal';
import type { Board } from '@boardbot/emulator/control';
import { promtoolCheck, type TempDir, tempDir, until } from '@boardbot/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureLogs, type LogCapture } from './support/logs.js';
import { TestPlatform } from './support/platform.js';

// A class every app shares: each run answers as its own app (`ctx.app`).
@Command({ name: 'who', description: 'Which app answers' })
class Who {
  run(ctx: CommandContext) {
    return ctx.reply(`I am ${ctx.app.name}`);
  }
}

@Command({ name: 'alpha', description: 'Only the alpha app has it' })
class Alpha {
  run(ctx: CommandContext) {
    return ctx.reply('alpha here');
  }
}

@Command({ name: 'beta', description: 'Only the beta app has it' })
class Beta {
  run(ctx: CommandContext) {
    return ctx.reply('beta here');
  }
}

@Command({ name: 'gamma', description: 'Only the gamma app has it' })
class Gamma {
  run(ctx: CommandContext) {
    return ctx.reply('gamma here');
  }
}

// A write under a key the handler chooses: the platform replays it rather than post it twice.
@Command({ name: 'announce', description: 'Posts the announcement once' })
class Announce {
  async run(ctx: CommandContext) {
    await ctx.rest.sendMessage(ctx.boardId, { content: 'the announcement' }, { idempotencyKey: 'announce-1' });
    return ctx.reply('announced');
  }
}

/** Held until the test lets it go: an app whose one worker is busy. */
let release: () => void = () => {};
let held: Promise<void> = Promise.resolve();
@Command({ name: 'slow', description: 'Holds its worker until the test lets it go' })
class Slow {
  async run(ctx: CommandContext) {
    await held;
    return ctx.reply('slow done');
  }
}

// Once an hour per person: shared by two apps, each app counts its own uses.
@Command({ name: 'daily', description: 'Once an hour' })
@Cooldown({ ms: 3_600_000 })
class Daily {
  run(ctx: CommandContext) {
    return ctx.reply('daily done');
  }
}

const BOTS = {
  alpha: defineBot({ handlers: [Who, Alpha, Slow, Daily] }),
  beta: defineBot({ handlers: [Who, Beta, Daily] }),
  gamma: defineBot({ handlers: [Who, Gamma, Announce] }),
};
type Name = keyof typeof BOTS;

let platform: TestPlatform;
let state: TempDir;
let logs: LogCapture;
let host: Host | undefined;
/** The tokens "database" the host's resolver reads. */
const tokens = new Map<string, string>();
const apps: Partial<Record<Name, { id: string; board: Board }>> = {};

/** Makes the platform's app `name`, installed on a board of its own where alice is a member. */
async function platformApp(name: Name): Promise<void> {
  const created = await platform.control.createApp({ name });
  const board = await platform.control.createBoard({ name: `${name}-board` });
  await platform.control.setMember(board.id, platform.alice.id);
  await platform.control.install(created.app.id, board.id);
  tokens.set(name, created.token);
  apps[name] = { id: created.app.id, board };
}

function hosted(name: Name) {
  return {
    id: name,
    bot: BOTS[name],
    token: async (id: string) => tokens.get(id) ?? '',
    options: { apiUrl: platform.apiUrl },
  };
}

/** alice invokes `/command` on the app's board; resolves with the app's first answer, or null. */
async function ask(name: Name, command: string, timeoutMs = 15_000): Promise<string | null> {
  const app = apps[name] as { id: string; board: Board };
  const interaction = await platform.control.invoke({
    board_id: app.board.id,
    user_id: platform.alice.id,
    command,
    options: {},
    app_id: app.id,
  });
  const view = await platform.control.wait(interaction.id, { answers: 1, timeoutMs });
  return view.answers[0]?.content ?? null;
}

async function readyz(query = ''): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${host?.healthUrl}/readyz${query}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeEach(async () => {
  platform = await TestPlatform.start();
  state = tempDir('boardbot-host-');
  logs = captureLogs();
  tokens.clear();
  for (const name of Object.keys(BOTS) as Name[]) await platformApp(name);
});

afterEach(async () => {
  await host?.stop();
  host = undefined;
  await platform.close();
  state.remove();
});

function startHost(names: readonly Name[]): Promise<void> {
  host = createHost(
    { stateDir: state.dir, logger: logs.logger, handleSignals: false, health: { port: 0 } },
    names.map(hosted),
  );
  return host.start();
}

describe('a host of apps on one emulator', () => {
  it('runs three apps in one process, each answering its own commands on its own board as its own app', async () => {
    await startHost(['alpha', 'beta', 'gamma']);
    expect(host?.status().map((a) => a.state)).toEqual(['running', 'running', 'running']);
    expect(await ask('alpha', 'alpha')).toBe('alpha here');
    expect(await ask('beta', 'beta')).toBe('beta here');
    expect(await ask('gamma', 'gamma')).toBe('gamma here');
    expect(await ask('alpha', 'who')).toBe('I am alpha');
    expect(await ask('beta', 'who')).toBe('I am beta');
    expect(await ask('gamma', 'who')).toBe('I am gamma');
    // Each app registered its own command set, and only that.
    const registered = await platform.control.apps();
    const names = (name: Name) =>
      registered
        .find((a) => a.id === apps[name]?.id)
        ?.commands.map((c) => c.name)
        .sort();
    expect(names('alpha')).toEqual(['alpha', 'daily', 'slow', 'who']);
    expect(names('beta')).toEqual(['beta', 'daily', 'who']);
    // One logger: every app's lines carry its `app` field.
    const running = logs.lines().filter((l) => l.msg === 'running as app');
    expect(running.map((l) => l.app).sort()).toEqual(['alpha', 'beta', 'gamma']);
    expect(logs.text()).not.toContain(tokens.get('alpha'));
  });

  it('shares one HTTP pool: an app added later sends its requests on a connection another app opened', async () => {
    const bySocket = new Map<number, Set<string>>();
    platform.emu.app.server.on('request', (req) => {
      const auth = req.headers.authorization;
      if (!auth || req.url?.includes('/gateway')) return;
      const port = req.socket.remotePort as number;
      bySocket.set(port, (bySocket.get(port) ?? new Set()).add(auth));
    });
    await startHost(['alpha']);
    await host?.add(hosted('beta'));
    expect([...bySocket.values()].some((tokensSeen) => tokensSeen.size === 2)).toBe(true);
  });

  it('serves one /readyz for every app and one per app, and /metrics with an app label and the process metrics once', async () => {
    await startHost(['alpha', 'beta']);
    await ask('alpha', 'alpha');
    const overall = await readyz();
    expect(overall.status).toBe(200);
    expect(overall.body.checks).toEqual({ alpha: true, beta: true });
    expect((await readyz('?app=beta')).status).toBe(200);
    expect((await readyz('?app=nope')).status).toBe(404);
    const metrics = await (await fetch(`${host?.healthUrl}/metrics`)).text();
    expect(metrics).toMatch(/boardbot_handler_duration_seconds_count\{[^}]*app="alpha"[^}]*\} 1/);
    expect(metrics).toMatch(/boardbot_ready\{app="beta"\} 1/);
    expect(metrics.match(/^# TYPE process_cpu_user_seconds_total /gm)).toHaveLength(1);
    expect(metrics).toMatch(/^process_cpu_user_seconds_total [\d.e+-]+$/m);
    expect(metrics).not.toMatch(/^process_cpu_user_seconds_total\{/m);
    expect(metrics).toMatch(/boardbot_host_apps\{state="running"\} 2/);
    await promtoolCheck(metrics);
  });

  it('stops an app whose token is revoked while it runs, alone: /readyz says which, the others go on', async () => {
    await startHost(['alpha', 'beta', 'gamma']);
    expect(await ask('beta', 'beta')).toBe('beta here');
    await platform.control.rotateToken(apps.beta?.id as string);
    await until(() => host?.app('beta').status().state === 'failed', 'the revoked app failed');
    expect(host?.app('beta').status().error?.code).toMatch(/^BOARDBOT_/);
    const overall = await readyz();
    expect(overall.status).toBe(503);
    expect(overall.body.checks).toEqual({ alpha: true, beta: false, gamma: true });
    expect((await readyz('?app=beta')).body).toMatchObject({ ready: false, state: 'failed' });
    expect((await readyz('?app=alpha')).status).toBe(200);
    expect(await ask('alpha', 'alpha')).toBe('alpha here');
    expect(await ask('gamma', 'gamma')).toBe('gamma here');
    const failed = logs.lines().find((l) => l.msg === 'app failed: stopped alone, the other apps go on');
    expect(failed?.app).toBe('beta');
  });

  it('adds an app and removes one while it runs; one added again resumes from its state folder', async () => {
    await startHost(['alpha', 'beta']);
    expect(await ask('beta', 'beta')).toBe('beta here');
    const added = await host?.add(hosted('gamma'));
    expect(added?.state).toBe('running');
    expect(await ask('gamma', 'gamma')).toBe('gamma here');
    await host?.remove('beta');
    expect(host?.status().map((a) => a.id)).toEqual(['alpha', 'gamma']);
    expect((await readyz('?app=beta')).status).toBe(404);
    const metrics = await (await fetch(`${host?.healthUrl}/metrics`)).text();
    expect(metrics).toContain('app="gamma"');
    expect(metrics).not.toContain('app="beta"');
    // Asked while no bot runs for it: unanswered, until it is added again and resumes where it stopped.
    const beta = apps.beta as { id: string; board: Board };
    const asked = await platform.control.invoke({
      ...{ board_id: beta.board.id, user_id: platform.alice.id, command: 'beta', options: {}, app_id: beta.id },
    });
    expect(await ask('alpha', 'alpha')).toBe('alpha here');
    expect((await platform.control.interaction(asked.id)).answers).toEqual([]);
    await host?.add(hosted('beta'));
    expect((await platform.answers(asked.id)).answers[0]?.content).toBe('beta here');
  });

  it("keeps an app's idempotency keys across a new token: a write with the same key is not doubled", async () => {
    await startHost(['gamma']);
    expect(await ask('gamma', 'announce')).toBe('announced');
    const rotated = await platform.control.rotateToken(apps.gamma?.id as string);
    tokens.set('gamma', rotated.token);
    expect((await host?.retoken('gamma'))?.state).toBe('running');
    expect(await ask('gamma', 'announce')).toBe('announced');
    const board = apps.gamma?.board as Board;
    const posted = (await platform.messages(board)).filter((m) => m.content === 'the announcement');
    expect(posted).toHaveLength(1);
  });

  it("gives each app its own worker bound: one app's busy workers do not hold another's answers", async () => {
    held = new Promise<void>((resolve) => {
      release = resolve;
    });
    host = createHost(
      { stateDir: state.dir, logger: logs.logger, handleSignals: false, defaults: { concurrency: 1 } },
      [hosted('alpha'), hosted('beta')],
    );
    await host.start();
    const alpha = apps.alpha as { id: string; board: Board };
    const invoke = (command: string) =>
      platform.control.invoke({
        ...{ board_id: alpha.board.id, user_id: platform.alice.id, command, options: {}, app_id: alpha.id },
      });
    // alpha's one worker is held, and a second event of alpha waits its turn.
    const slow = await invoke('slow');
    const queued = await invoke('who');
    expect(await ask('beta', 'beta')).toBe('beta here');
    expect((await platform.control.interaction(queued.id)).answers).toEqual([]);
    release();
    expect((await platform.answers(slow.id)).answers[0]?.content).toBe('slow done');
    expect((await platform.answers(queued.id)).answers[0]?.content).toBe('I am alpha');
  });

  it("keys a shared cooldown store by app: one app's window does not hold another's", async () => {
    const shared = new Cooldowns(() => Date.now());
    host = createHost(
      { stateDir: state.dir, logger: logs.logger, handleSignals: false, defaults: { cooldowns: shared } },
      [hosted('alpha'), hosted('beta')],
    );
    await host.start();
    // Each app numbers its own events: alpha's `/daily` is not its first, beta's is.
    expect(await ask('alpha', 'who')).toBe('I am alpha');
    expect(await ask('alpha', 'daily')).toBe('daily done');
    expect(await ask('beta', 'daily')).toBe('daily done');
    expect(await ask('alpha', 'daily')).toMatch(/^Slow down/);
  });

  it('stops every app gracefully on SIGTERM, then exits', async () => {
    const signals = new EventEmitter();
    let exited: (code: number) => void = () => {};
    const exit = new Promise<number>((resolve) => {
      exited = resolve;
    });
    host = createHost({ stateDir: state.dir, logger: logs.logger, signals, exit: (code) => exited(code) }, [
      hosted('alpha'),
      hosted('beta'),
    ]);
    await host.start();
    signals.emit('SIGTERM');
    expect(await exit).toBe(0);
    expect(host.state).toBe('stopped');
    expect(host.status().map((a) => a.state)).toEqual(['stopped', 'stopped']);
    expect(
      logs
        .lines()
        .filter((l) => l.msg === 'bot stopped')
        .map((l) => l.app),
    ).toEqual(expect.arrayContaining(['alpha', 'beta']));
  });

  it('reports an app without a token, or whose handlers do not load, and starts the others', async () => {
    host = createHost({ stateDir: state.dir, logger: logs.logger, handleSignals: false, health: { port: 0 } }, [
      hosted('alpha'),
      { id: 'unset', bot: BOTS.beta, token: { env: 'BOARDBOT_TEST_HOST_UNSET_TOKEN' } },
      {
        id: 'broken',
        bot: () => Promise.reject(new Error('Cannot find module ./broken.js')),
        token: { env: 'BOARDBOT_TEST_HOST_UNSET_TOKEN' },
      },
    ]);
    // Before the start, a re-token has nothing to do: the start reads every token.
    expect(await host.retoken('alpha')).toEqual({ id: 'alpha', state: 'idle' });
    await host.start();
    expect(host.status()).toEqual([
      { id: 'alpha', state: 'running' },
      { id: 'unset', state: 'failed', error: { code: 'BOARDBOT_APP_TOKEN_MISSING', message: expect.any(String) } },
      { id: 'broken', state: 'failed', error: { message: 'Cannot find module ./broken.js' } },
    ]);
    expect(await ask('alpha', 'alpha')).toBe('alpha here');
    expect((await readyz('?app=unset')).body).toMatchObject({
      state: 'failed',
      error: { code: 'BOARDBOT_APP_TOKEN_MISSING' },
    });
  });
});
