import { Writable } from 'node:stream';
import { createLogger, defaultLoggerOptions, loggerOptions, REDACT_PATHS, terminalLog } from '@boardbot/core/internal';
import type { Logger } from '@boardbot/protocol';
import { type LoggerOptions, pino } from 'pino';
import type { PrettyOptions } from 'pino-pretty';
import { describe, expect, it } from 'vitest';

function sink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _e, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return {
    stream,
    text: () => lines.join(''),
    lines: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/** An object holding `value` at `path` (`*` stands for any key: here `any`). */
function at(path: string, value: string): Record<string, unknown> {
  return path
    .split('.')
    .reverse()
    .reduce<unknown>((inner, key) => ({ [key === '*' ? 'any' : key]: inner }), value) as Record<string, unknown>;
}

/** One secret per redact path, each unique, so a leak names its path. */
const SECRETS = REDACT_PATHS.map((path, i) => ({ path, secret: `tok-SECRET-${i}-${path.replaceAll('*', 'x')}` }));

/** Logs a token at every redact path, as fields of a line and as bindings of a child (and grandchild). */
function logEveryPath(log: Logger): void {
  for (const { path, secret } of SECRETS) {
    log.info({ ...at(path, secret), keep: 'visible', password: 'hunter2' }, `line for ${path}`);
    log.child(at(path, secret)).child({ event_id: '7' }).info(`child for ${path}`);
  }
}

function expectRedacted(text: string, censor = '[redacted]'): void {
  for (const { secret } of SECRETS) expect(text).not.toContain(secret);
  expect(text).toContain('"keep":"visible"');
  expect(text).toContain('"event_id":"7"');
  expect(text.split(JSON.stringify(censor)).length - 1).toBeGreaterThanOrEqual(SECRETS.length * 2);
}

describe('token redaction merges with a logger’s own, never replaced by it', () => {
  it('adds the token paths to a pino logger that has no redaction', () => {
    const out = sink();
    logEveryPath(createLogger(pino(out.stream)));
    expectRedacted(out.text());
    expect(out.text()).toContain('hunter2');
  });

  it('keeps a pino logger’s own redaction and still redacts every token path', () => {
    const out = sink();
    logEveryPath(createLogger(pino({ redact: ['password'] }, out.stream)));
    expectRedacted(out.text());
    expect(out.text()).toContain('"password":"[Redacted]"');
  });

  it('keeps a pino logger’s own censor and formatter', () => {
    const out = sink();
    const own = pino(
      { redact: { paths: ['password'], censor: '***' }, formatters: { log: (o) => ({ ...o, formatted: true }) } },
      out.stream,
    );
    logEveryPath(createLogger(own));
    expectRedacted(out.text());
    expect(out.text()).not.toContain('hunter2');
    expect(out.text()).toContain('"password":"***"');
    expect(out.lines().filter((l) => l.formatted === true)).toHaveLength(SECRETS.length * 2);
  });

  it.each<[string, NonNullable<LoggerOptions['redact']>, string]>([
    ['a list of paths', ['password'], '[redacted]'],
    ['paths and a censor', { paths: ['password'], censor: '###' }, '###'],
  ])('merges pino options that bring %s with the token paths', (_what, redact, censor) => {
    const out = sink();
    logEveryPath(pino(loggerOptions({ level: 'info', redact }, false), out.stream));
    expectRedacted(out.text(), censor);
    expect(out.text()).not.toContain('hunter2');
  });

  it('redacts the token paths with the default options', () => {
    const out = sink();
    logEveryPath(pino(loggerOptions(undefined, false), out.stream));
    expectRedacted(out.text());
  });

  it.each<[string, LoggerOptions | undefined]>([
    ['the default logger', undefined],
    ['a logger built from options without redaction', { level: 'info' }],
  ])('redacts the token paths with %s (censored by the runtime, not by pino)', (_what, options) => {
    const out = sink();
    logEveryPath(createLogger(options, false, out.stream));
    expectRedacted(out.text());
    expect(out.text()).toContain('hunter2');
  });

  it('lets the default logger’s options keep pino’s redaction when they bring paths of their own', () => {
    const out = sink();
    logEveryPath(createLogger({ redact: ['password'] }, false, out.stream));
    expectRedacted(out.text());
    expect(out.text()).not.toContain('hunter2');
  });

  it('keeps an error’s message and stack for pino’s err serializer, and censors a token it carries', () => {
    const out = sink();
    const log = createLogger(pino({ redact: ['password'] }, out.stream));
    log.error({ err: new Error('kaput') }, 'plain');
    log.error({ err: Object.assign(new Error('leaky'), { token: 'tok-SECRET-on-an-error' }) }, 'leaky');
    const [plain, leaky] = out.lines();
    expect(plain?.err).toMatchObject({ type: 'Error', message: 'kaput', stack: expect.stringContaining('kaput') });
    expect(leaky?.err).toMatchObject({ type: 'Error', message: 'leaky', token: '[redacted]' });
    expect(out.text()).not.toContain('tok-SECRET');
  });

  it('leaves the object a handler logged untouched', () => {
    const out = sink();
    const interaction = { id: 'i', token: 'tok-SECRET-kept-in-the-object' };
    createLogger(pino({ redact: ['password'] }, out.stream)).info({ interaction }, 'x');
    expect(out.text()).not.toContain('tok-SECRET');
    expect(interaction.token).toBe('tok-SECRET-kept-in-the-object');
  });
});

/** A pino logger writing through the terminal transport, at `level`, with the default options. */
function terminal(level?: string) {
  const options = loggerOptions(level === undefined ? undefined : { level }, true).transport as {
    options: PrettyOptions;
  };
  const out = sink();
  const log = pino(
    { name: 'boardbot', level: level ?? 'info' },
    terminalLog({ ...options.options, colorize: false, destination: out.stream }),
  );
  return { log, out };
}

describe('createLogger', () => {
  it('uses pino-pretty on a terminal and JSON lines otherwise', () => {
    expect(defaultLoggerOptions(true).transport).toMatchObject({ target: expect.stringMatching(/terminal-log\.js$/) });
    expect(defaultLoggerOptions(false).transport).toBeUndefined();
    expect(defaultLoggerOptions(false).redact).toMatchObject({ censor: '[redacted]' });
  });

  it('prints one line per record in a terminal, and JSON there too with NODE_ENV=production', async () => {
    const { log, out } = terminal();
    log.child({ correlation_id: 'c-1', phase: 'start' }).info({ boards: 2, nested: { a: 1 } }, 'bot started');
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.text()).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: bot started \{"boards":2,"nested":\{"a":1\}\}\n$/);
    const saved = process.env.NODE_ENV;
    try {
      process.env.NODE_ENV = 'production';
      expect(defaultLoggerOptions(true).transport).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = saved;
    }
  });

  it('shortens ids in a terminal to their last six characters, and keeps them whole in JSON (issue 42)', async () => {
    const { log, out } = terminal();
    const board = '0195c3a1-7b2c-7d4e-8f9a-1b2c3d4e5f6a';
    const order = 'ord_9f8e7d6c5b4a3f2e';
    log.child({ board_id: board, event_id: '57' }).info({ order_id: order, topic: board, count: 3 }, 'handled');
    await new Promise((resolve) => setImmediate(resolve));
    const line = out.text();
    expect(line).toContain('"board_id":"…4e5f6a"');
    expect(line).toContain('"order_id":"…4a3f2e"');
    // Short ids, and fields that are not ids, stay as they are.
    expect(line).toContain('"event_id":"57"');
    expect(line).toContain(`"topic":"${board}"`);
    expect(line).toContain('"count":3');
    expect(line.match(/0195c3a1/g)).toHaveLength(1);

    const json = sink();
    pino(defaultLoggerOptions(false), json.stream).child({ board_id: board }).info('handled');
    expect(json.lines()[0]).toMatchObject({ board_id: board });
  });

  it("prints a boardbot error as one block (code, message, fix), its stack only at debug; another error's stack always (issue 42)", async () => {
    const failure = Object.assign(new Error('The regex stalls.\nFix: rewrite it.'), { code: 'BOARDBOT_UNSAFE_REGEX' });
    const bug = new TypeError('x is undefined');
    const printed = async (level: string, err: Error) => {
      const { log, out } = terminal(level);
      log.error({ err }, 'start failed');
      await new Promise((resolve) => setImmediate(resolve));
      return out.text().split('\n').slice(1, -1);
    };
    expect(await printed('info', failure)).toEqual([
      '    err: BOARDBOT_UNSAFE_REGEX: The regex stalls.',
      '    Fix: rewrite it.',
    ]);
    const atDebug = await printed('debug', failure);
    expect(atDebug.slice(0, 2)).toEqual(['    err: BOARDBOT_UNSAFE_REGEX: The regex stalls.', '    Fix: rewrite it.']);
    expect(atDebug[2]).toMatch(/^ {8}at .*logger\.test\.ts/);
    const bugLines = await printed('info', bug);
    expect(bugLines[0]).toBe('    err: TypeError: x is undefined');
    expect(bugLines[1]).toMatch(/^ {8}at .*logger\.test\.ts/);
  });

  it('writes JSON lines named boardbot at LOG_LEVEL, else info (docs/production.md)', () => {
    const saved = process.env.LOG_LEVEL;
    try {
      delete process.env.LOG_LEVEL;
      expect(defaultLoggerOptions(false).level).toBe('info');
      const out = sink();
      const log = pino(defaultLoggerOptions(false), out.stream);
      log.debug('hidden');
      log.info('shown');
      expect(out.lines()).toEqual([expect.objectContaining({ level: 30, name: 'boardbot', msg: 'shown' })]);
      process.env.LOG_LEVEL = 'warn';
      expect(defaultLoggerOptions(false).level).toBe('warn');
    } finally {
      if (saved === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = saved;
    }
  });

  it('false gives a logger that writes nothing', () => {
    expect(() => createLogger(false).info('nothing')).not.toThrow();
  });
});
