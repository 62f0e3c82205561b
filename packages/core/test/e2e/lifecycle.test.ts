import { EventEmitter } from 'node:events';
import { BOT_EXIT_CODES, Command, type CommandContext, createBot, exitCodeAfterStop, Option } from '@boardbot/core';
import { until } from '@boardbot/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

/** Handlers that wait on a gate the test opens, to hold many answers in flight. */
class Gate {
  started = 0;
  private release: () => void = () => {};
  readonly opened = new Promise<void>((resolve) => {
    this.release = resolve;
  });
  open() {
    this.release();
  }
}

class WorkOptions {
  @Option({ description: 'Job number' }) n!: number;
}

@Command({ name: 'work', description: 'Slow work', options: WorkOptions })
class Work {
  constructor(private readonly gate: Gate) {}
  async run(ctx: CommandContext<WorkOptions>, { n }: WorkOptions) {
    this.gate.started++;
    await this.gate.opened;
    return ctx.reply(`job ${n} done`);
  }
}

/** A handler that holds on past the shutdown until the test lets it go, then tries to reply. */
class Stuck {
  static gate = new Gate();
  static contexts: CommandContext[] = [];
  static outcome: string | undefined;
}

@Command({ name: 'stuck', description: 'Ignores the shutdown' })
class StuckCommand {
  async run(ctx: CommandContext) {
    Stuck.contexts.push(ctx);
    Stuck.gate.started++;
    await Stuck.gate.opened;
    Stuck.outcome = await ctx.reply('too late').then(
      () => 'sent',
      (e: { code?: string }) => e.code,
    );
  }
}

@Command({ name: 'ping', description: 'Ping' })
class Ping {
  run() {
    return 'pong';
  }
}

describe('bot lifecycle against the emulator', () => {
  let platform: Platform;
  beforeEach(async () => {
    platform = await TestPlatform.start();
  });
  afterEach(async () => {
    await platform.close();
  });

  it('stop() during 50 in-flight handlers closes intake and loses no answer', async () => {
    const gate = new Gate();
    // Unordered, so all 16 workers take invocations of the one board at once.
    const { bot, logs } = platform.bot({
      handlers: [Work],
      providers: [{ provide: Gate, useValue: gate }],
      orderBy: 'none',
    });
    await bot.start();
    const ids: string[] = [];
    for (let n = 0; n < 50; n++) ids.push((await platform.invoke(platform.alice, platform.general, 'work', { n })).id);
    await until(() => bot.pending === 50 && gate.started === 16, '50 events received, 16 handlers running');
    const stopping = bot.stop();
    expect(bot.state).toBe('stopping');
    gate.open();
    await stopping;
    expect(bot.state).toBe('stopped');
    const views = await Promise.all(ids.map((id) => platform.answers(id, 1, 0)));
    expect(views.map((v) => v.answers[0]?.content)).toEqual(ids.map((_, n) => `job ${n} done`));
    expect(logs.lines().some((l) => l.msg === 'handlers still running at shutdown')).toBe(false);
    // Intake is closed: an invocation after stop() stays unanswered.
    const late = await platform.invoke(platform.alice, platform.general, 'work', { n: 99 });
    expect((await platform.answers(late.id, 1, 200)).status).toBe('pending');
  });

  it('SIGTERM stops gracefully and exits with code 0', async () => {
    const signals = new EventEmitter();
    const exits: number[] = [];
    const { bot } = platform.bot({
      handlers: [Ping],
      handleSignals: true,
      signals,
      exit: (code) => exits.push(code),
    });
    await bot.start();
    expect(signals.listenerCount('SIGTERM')).toBe(1);
    signals.emit('SIGTERM');
    await until(() => exits.length > 0, 'the bot exited');
    expect(exits).toEqual([0]);
    expect(bot.state).toBe('stopped');
    expect(signals.listenerCount('SIGTERM')).toBe(0);
    expect(signals.listenerCount('SIGINT')).toBe(0);
  });

  it('SIGTERM past shutdownTimeoutMs aborts the running handler, logs it by name and exits with 124', async () => {
    Stuck.gate = new Gate();
    Stuck.contexts = [];
    Stuck.outcome = undefined;
    const signals = new EventEmitter();
    const exits: number[] = [];
    const { bot, logs } = platform.bot({
      handlers: [StuckCommand],
      handleSignals: true,
      signals,
      exit: (code) => exits.push(code),
      // The handler waits for a gate the test opens only after the exit: the timeout always passes.
      shutdownTimeoutMs: 20,
    });
    await bot.start();
    const interaction = await platform.invoke(platform.alice, platform.general, 'stuck');
    await until(() => Stuck.gate.started === 1, 'the handler is running');
    signals.emit('SIGTERM');
    await until(() => exits.length > 0, 'the bot exited');
    expect(exits).toEqual([BOT_EXIT_CODES.shutdownTimedOut]);
    const ctx = Stuck.contexts[0];
    expect(ctx?.signal.aborted).toBe(true);
    expect(ctx?.signal.reason).toMatchObject({ code: 'BOARDBOT_SHUTDOWN_TIMEOUT' });
    const abandoned = logs.lines().find((l) => String(l.msg).startsWith('handler abandoned at shutdown'));
    expect(abandoned).toMatchObject({ handler: 'StuckCommand.run', interaction_id: interaction.id, level: 40 });
    expect(abandoned?.event_id).toEqual(expect.any(String));
    expect(logs.lines().find((l) => l.msg === 'handlers still running at shutdown')).toMatchObject({ abandoned: 1 });
    Stuck.gate.open();
    await until(() => Stuck.outcome !== undefined, 'the handler tried to reply');
    expect(Stuck.outcome).toBe('BOARDBOT_WRITE_DROPPED');
    expect((await platform.answers(interaction.id, 1, 0)).answers).toEqual([]);
  });

  it('stop() reports the abandoned handlers and the events it never started', async () => {
    Stuck.gate = new Gate();
    Stuck.contexts = [];
    Stuck.outcome = undefined;
    const { bot } = platform.bot({ handlers: [StuckCommand], concurrency: 1, shutdownTimeoutMs: 20 });
    await bot.start();
    await platform.invoke(platform.alice, platform.general, 'stuck');
    await platform.invoke(platform.bob, platform.general, 'stuck');
    await until(() => bot.pending === 2 && Stuck.gate.started === 1, 'one handler running, one event queued');
    const report = await bot.stop();
    expect(report).toEqual({
      abandoned: [{ handler: 'StuckCommand.run', eventId: expect.any(String) }],
      unhandled: 1,
    });
    expect(exitCodeAfterStop(report)).toBe(124);
    Stuck.gate.open();
    await until(() => Stuck.outcome !== undefined, 'the abandoned handler ended');
    expect(Stuck.gate.started).toBe(1);
  });

  it('stop() reports nothing left after a clean stop, and is safe to call twice', async () => {
    const { bot } = platform.bot({ handlers: [Ping] });
    await bot.start();
    const [report, again] = await Promise.all([bot.stop(), bot.stop()]);
    expect(report).toEqual({ abandoned: [], unhandled: 0 });
    expect(again).toEqual(report);
    expect(await bot.stop()).toEqual(report);
    expect(exitCodeAfterStop(report)).toBe(0);
  });

  it('exits with code 1 when the platform revokes the token while running', async () => {
    const exits: number[] = [];
    const { bot, logs } = platform.bot({
      handlers: [Ping],
      handleSignals: true,
      signals: new EventEmitter(),
      exit: (code) => exits.push(code),
    });
    await bot.start();
    // A reset deletes the app: its stream ends and the reconnect is refused with 401.
    await platform.control.reset();
    await until(() => exits.length > 0, 'the bot exited');
    expect(exits).toEqual([1]);
    expect(bot.state).toBe('stopped');
    expect(logs.lines().some((l) => l.msg === 'gateway closed for good: stopping the bot')).toBe(true);
  });

  it('with handleSignals: false, only stops when the platform revokes the token, and its health endpoint closes', async () => {
    const exits: number[] = [];
    const { bot, logs } = platform.bot({
      handlers: [Ping],
      handleSignals: false,
      exit: (code) => exits.push(code),
      health: { port: 0 },
    });
    await bot.start();
    const healthz = `${bot.healthUrl}/healthz`;
    expect((await fetch(healthz)).status).toBe(200);
    await platform.control.reset();
    await until(() => bot.state === 'stopped', 'the bot stopped');
    expect(exits).toEqual([]);
    const fatal = logs.lines().find((l) => l.msg === 'gateway closed for good: stopping the bot');
    expect(fatal).toMatchObject({ level: 50 });
    // docs/production.md: /healthz stops answering, so the orchestrator restarts the process.
    await expect(fetch(healthz)).rejects.toThrow();
  });

  it('a SIGTERM while the bot starts stops it gracefully once started (exit 0), not a killed process', async () => {
    const exits: number[] = [];
    const signals = new EventEmitter();
    const { bot, logs } = platform.bot({ handlers: [Ping], handleSignals: true, signals, exit: (c) => exits.push(c) });
    const started = bot.start();
    // The listener is there before start() resolves: without it, Node's default would kill the process.
    expect(signals.listenerCount('SIGTERM')).toBe(1);
    signals.emit('SIGTERM');
    await started;
    await until(() => exits.length > 0, 'the bot exited');
    expect(exits).toEqual([0]);
    expect(bot.state).toBe('stopped');
    expect(logs.lines().some((l) => l.msg === 'bot stopped')).toBe(true);
  });

  it("commandSync 'check' fails the start on drift and writes nothing", async () => {
    const { bot } = platform.bot({ handlers: [Ping], commandSync: 'check' });
    await expect(bot.start()).rejects.toMatchObject({
      code: 'BOARDBOT_COMMANDS_DRIFT',
      message: expect.stringContaining('+ /ping  Ping'),
    });
    expect(bot.state).toBe('stopped');
    const apps = await platform.control.apps();
    expect(apps[0]?.commands).toEqual([]);
  });

  it("commandSync 'check' starts when the registered set matches", async () => {
    const first = platform.bot({ handlers: [Ping] });
    await first.bot.start();
    await first.bot.stop();
    const { bot } = platform.bot({ handlers: [Ping], commandSync: 'check' });
    await expect(bot.start()).resolves.toMatchObject({ inSync: true });
    expect(await platform.ask(platform.bob, platform.general, 'ping')).toBe('pong');
    await bot.stop();
  });

  it("commandSync 'off' leaves the registered commands alone", async () => {
    const { bot } = platform.bot({ handlers: [Ping], commandSync: 'off' });
    await expect(bot.start()).resolves.toBeUndefined();
    await bot.stop();
    const apps = await platform.control.apps();
    expect(apps[0]?.commands).toEqual([]);
  });

  it('a wrong token fails start() with the API error, never showing the token', async () => {
    const { bot, logs } = platform.bot({ handlers: [Ping], token: 'not-the-token-123' });
    await expect(bot.start()).rejects.toMatchObject({ status: 401 });
    expect(bot.state).toBe('stopped');
    // docs/production.md: `start failed` at error, with the error.
    expect(logs.lines().find((l) => l.msg === 'start failed')).toMatchObject({
      level: 50,
      err: expect.objectContaining({ status: 401 }),
    });
    expect(logs.text()).not.toContain('not-the-token-123');
    await expect(bot.start()).rejects.toMatchObject({ code: 'BOARDBOT_BOT_STATE' });
  });

  it('an apiUrl without /api/v1 fails start() naming the URL it tried and the /api/v1 base (issue 30)', async () => {
    const origin = new URL(platform.apiUrl).origin;
    const { bot } = platform.bot({ handlers: [Ping], apiUrl: origin });
    await expect(bot.start()).rejects.toMatchObject({
      code: 'BOARDBOT_API_ERROR',
      status: 404,
      message:
        `GET /app (${origin}/app) failed with 404 not_found: No route GET /app. The base URL ${origin} is not ` +
        `the platform's API: it ends in /api/v1, e.g. ${origin}/api/v1 (set it with BOARDBOT_API_URL).`,
    });
  });

  it('reads BOARDBOT_API_URL when given no apiUrl (docs/production.md)', async () => {
    const saved = process.env.BOARDBOT_API_URL;
    process.env.BOARDBOT_API_URL = platform.apiUrl;
    try {
      const bot = createBot({
        token: platform.token,
        handlers: [Ping],
        handleSignals: false,
        logger: false,
        position: false,
      });
      await bot.start();
      expect(await platform.ask(platform.alice, platform.general, 'ping')).toBe('pong');
      await bot.stop();
    } finally {
      if (saved === undefined) delete process.env.BOARDBOT_API_URL;
      else process.env.BOARDBOT_API_URL = saved;
    }
  });

  it('scale: false runs a single process though BOARDBOT_REDIS_URL names a Redis', async () => {
    const saved = process.env.BOARDBOT_REDIS_URL;
    // Nothing listens there: a bot that took the variable would fail to start or hang on it.
    process.env.BOARDBOT_REDIS_URL = 'redis://127.0.0.1:1';
    try {
      const { bot } = platform.bot({ handlers: [Ping], scale: false });
      await bot.start();
      expect(await platform.ask(platform.alice, platform.general, 'ping')).toBe('pong');
      expect(await bot.stop()).toEqual({ abandoned: [], unhandled: 0 });
    } finally {
      if (saved === undefined) delete process.env.BOARDBOT_REDIS_URL;
      else process.env.BOARDBOT_REDIS_URL = saved;
    }
  });
});
