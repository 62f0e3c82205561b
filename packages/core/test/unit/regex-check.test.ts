import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Bot,
  createBot,
  isBoardbotError,
  type MessageListenerMetadata,
  OnMessage,
  UnsafeRegexError,
} from '@boardbot/core';
import {
  checkerVersion,
  checkPatterns,
  declaredPatterns,
  MESSAGE_LISTENERS_KEY,
  nativeChecker,
  PATTERN_CHECK_TIMEOUT_MS,
  runNativeChecker,
  runWorker,
  VerdictCache,
} from '@boardbot/core/internal';
import { type RecordingLogger, recordingLogger, type TempDir, tempDir } from '@boardbot/test-support';
import { afterEach, describe, expect, it } from 'vitest';

class Greedy {
  @OnMessage(/^(a+)+$/)
  greedy() {
    return 'all a';
  }
}

class Plain {
  @OnMessage(/^!roll (\d+)d(\d+)$/i)
  roll() {
    return 'rolled';
  }
}

let dir: TempDir | undefined;
let bots: Bot[] = [];
afterEach(async () => {
  for (const bot of bots) if (bot.state === 'running') await bot.stop();
  bots = [];
  dir?.remove();
  dir = undefined;
});

/** A bot whose start fails at once after the check: its API answers nothing on port 1. */
function bot(handlers: (new () => unknown)[], logger: RecordingLogger): Bot {
  dir ??= tempDir('boardbot-regex-');
  const made = createBot({
    token: 'test-token',
    apiUrl: 'http://127.0.0.1:1',
    handlers,
    stateDir: dir.dir,
    position: false,
    handleSignals: false,
    logger,
  });
  bots.push(made);
  return made;
}

/** How a bot's start ends: its error (past the check, it cannot reach its API on port 1). */
function startError(made: Bot): Promise<unknown> {
  return made.start().then(
    () => undefined,
    (e: unknown) => e,
  );
}

/** The verdict files of the state directory. */
function cachedVerdicts(): string[] {
  const folder = join(dir?.dir ?? '', 'regex-checks');
  return existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.json')) : [];
}

/** Writes a verdict file as an earlier version would have. */
function plantVerdict(key: string, verdict: object): void {
  mkdirSync(join(dir?.dir ?? '', 'regex-checks'), { recursive: true });
  writeFileSync(join(dir?.dir ?? '', 'regex-checks', `${key}.json`), `${JSON.stringify(verdict)}\n`);
}

function metadata(cls: object): MessageListenerMetadata[] {
  return Reflect.getMetadata(MESSAGE_LISTENERS_KEY, cls) as MessageListenerMetadata[];
}

describe('the start-time check of regular expressions', () => {
  it('refuses /^(a+)+$/ with BOARDBOT_UNSAFE_REGEX: the pattern, its listener, an attack and the fix', async () => {
    const error = await startError(bot([Greedy], recordingLogger()));
    expect(error).toBeInstanceOf(UnsafeRegexError);
    expect(isBoardbotError(error) && error.code).toBe('BOARDBOT_UNSAFE_REGEX');
    const message = (error as Error).message;
    expect(message).toContain('Greedy.greedy: /^(a+)+$/ takes exponential time');
    expect(message).toContain(
      "Greedy.greedy: /^(a+)+$/ takes exponential time; an attack string looks like 'a' + 'a'.repeat(31) + '\\x00'",
    );
    expect(message).toContain("{ engine: 're2' }");
    expect(message).toContain('{ allowSlowRegex: true }');
    expect((error as UnsafeRegexError).problems).toHaveLength(1);
    // The page shows this very error.
    const page = readFileSync(new URL('../../../../docs/listening-to-messages.md', import.meta.url), 'utf8');
    const shown = page.split('## Patterns that cannot stall')[1]?.split('```text\n')[1]?.split('\n```')[0];
    expect(shown).toBe(`BOARDBOT_UNSAFE_REGEX: ${message}`);
  });
});

describe('verdicts', () => {
  it('are cached in the state directory: the next start decides from the cache, without the checker', async () => {
    const first = recordingLogger();
    await expect(bot([Greedy], first).start()).rejects.toThrow(UnsafeRegexError);
    expect(first.lines.some((l) => l.msg === 'checking regular expressions for catastrophic backtracking')).toBe(true);
    expect(readdirSync(join(dir?.dir ?? '', 'regex-checks')).filter((f) => f.endsWith('.json'))).toHaveLength(1);
    const second = recordingLogger();
    await expect(bot([Greedy], second).start()).rejects.toThrow(/Greedy\.greedy: \/\^\(a\+\)\+\$\/ takes exponential/);
    expect(second.lines.some((l) => l.msg === 'checking regular expressions for catastrophic backtracking')).toBe(
      false,
    );
  });

  it('refuses a polynomial pattern too, with its degree', async () => {
    class Split {
      @OnMessage(/\s*,\s*/)
      split() {}
    }
    dir = tempDir('boardbot-regex-');
    const check = checkPatterns(declaredPatterns(metadata(Split)), {
      stateDir: dir.dir,
      log: recordingLogger(),
    });
    await expect(check).rejects.toThrow('Split.split: /\\s*,\\s*/ takes polynomial (degree 2) time');
  });

  it('lets a safe pattern through, silently', async () => {
    dir = tempDir('boardbot-regex-');
    const log = recordingLogger();
    await checkPatterns(declaredPatterns(metadata(Plain)), {
      stateDir: dir.dir,
      log,
    });
    expect(log.lines.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('gives the checker the 5 seconds per pattern the docs promise', () => {
    expect(PATTERN_CHECK_TIMEOUT_MS).toBe(5000);
  });

  it('refuses a pattern the checker cannot decide in time, and caches no verdict: the next start checks it again', async () => {
    dir = tempDir('boardbot-regex-');
    const log = recordingLogger();
    const check = checkPatterns(declaredPatterns(metadata(Plain)), {
      stateDir: dir.dir,
      log,
      timeoutMs: 0,
    });
    await expect(check).rejects.toThrow(
      'Plain.roll: /^!roll (\\d+)d(\\d+)$/i could not be checked (timeout): nothing was cached, the next start checks it again',
    );
    expect(cachedVerdicts()).toEqual([]);
    // Given its time, the checker decides (safe): the timeout had left nothing behind.
    const again = recordingLogger();
    await checkPatterns(declaredPatterns(metadata(Plain)), {
      stateDir: dir.dir,
      log: again,
    });
    expect(again.lines.some((l) => l.msg === 'checking regular expressions for catastrophic backtracking')).toBe(true);
  });

  it('takes no cached unknown verdict for a decision: a vulnerable pattern behind one is checked and refused', async () => {
    dir = tempDir('boardbot-regex-');
    // What an earlier version cached after a timeout on a loaded machine: it let the pattern start.
    const key = VerdictCache.key(checkerVersion(), '^(a+)+$', '');
    plantVerdict(key, { status: 'unknown', reason: 'timeout' });
    await expect(bot([Greedy], recordingLogger()).start()).rejects.toThrow(
      /Greedy\.greedy: \/\^\(a\+\)\+\$\/ takes exponential/,
    );
    expect(JSON.parse(readFileSync(join(dir.dir, 'regex-checks', `${key}.json`), 'utf8'))).toMatchObject({
      status: 'vulnerable',
    });
  });
});

describe('flags the checker does not know', () => {
  it('refuses @OnMessage(/^(a+)+$/d) at start: d is dropped for the check (it changes no match), and it is vulnerable', async () => {
    class Indices {
      @OnMessage(/^(a+)+$/d)
      indices() {}
    }
    dir = tempDir('boardbot-regex-');
    // An earlier version cached the checker's "unknown flag" for it, and only warned.
    const stale = VerdictCache.key(checkerVersion(), '^(a+)+$', 'd');
    plantVerdict(stale, { status: 'unknown', reason: 'invalid: unknown flag' });
    const log = recordingLogger();
    const error = await startError(bot([Indices], log));
    expect(error).toBeInstanceOf(UnsafeRegexError);
    expect((error as UnsafeRegexError).problems).toEqual([
      expect.stringMatching(/^Indices\.indices: \/\^\(a\+\)\+\$\/d takes exponential time/),
    ]);
    expect(log.lines.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('refuses a v pattern, which the checker cannot decide, unless it runs on re2', async () => {
    // biome-ignore lint/complexity/useRegexLiterals: TypeScript refuses a `v` literal below es2024, this repository's target is es2022.
    const sets = new RegExp('^[a-z]+$', 'v');
    class Sets {
      @OnMessage(sets)
      sets() {}
    }
    const error = await startError(bot([Sets], recordingLogger()));
    expect(error).toBeInstanceOf(UnsafeRegexError);
    expect((error as Error).message).toContain(
      'this regular expression is not known to run without catastrophic backtracking',
    );
    expect((error as UnsafeRegexError).problems).toEqual([
      'Sets.sets: /^[a-z]+$/v could not be checked (invalid: unknown flag): the checker does not know the v flag: write it with u if it means the same',
    ]);
    // Nothing cached: the verdict was no decision.
    expect(cachedVerdicts()).toEqual([]);
    class LinearSets {
      @OnMessage(sets, { engine: 're2' })
      sets() {}
    }
    const linear = await startError(bot([LinearSets], recordingLogger()));
    expect(linear).not.toBeInstanceOf(UnsafeRegexError);
    expect(linear).toBeDefined();
  });
});

describe('the checker', () => {
  it("runs recheck's native build where it is installed (linux x64 here, an optional dependency)", () => {
    expect(nativeChecker()).toMatch(/recheck-linux-x64[/\\]recheck$/);
  });

  it('rejects when the native build cannot run (and runChecker then takes the worker thread)', async () => {
    const patterns = [{ hash: 'h', source: '^a$', flags: '' }];
    await expect(runNativeChecker('/bin/false', patterns, 1000)).rejects.toThrow(/stopped \(1\) before it answered/);
    await expect(runNativeChecker('/nonexistent/recheck', patterns, 1000)).rejects.toThrow(/ENOENT/);
  });

  it("falls back to recheck's JavaScript build in a worker thread, with the same diagnosis", async () => {
    const found = await runWorker([{ hash: 'h', source: '^(a+)+$', flags: '' }], PATTERN_CHECK_TIMEOUT_MS);
    expect(found.get('h')).toMatchObject({
      status: 'vulnerable',
      complexity: { type: 'exponential' },
      attack: { pattern: "'a' + 'a'.repeat(31) + '\\x00'" },
    });
  });
});
