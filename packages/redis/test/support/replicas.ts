import { createHash, randomUUID } from 'node:crypto';
import {
  type Bot,
  type BotOptions,
  Command,
  type CommandContext,
  createBot,
  type MessageContext,
  OnEvent,
  OnMessage,
  Option,
} from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { IsInt } from 'class-validator';
import { pino } from 'pino';
import { type RedisScaleOptions, redis } from '../../src/index.js';

class AskOptions {
  @Option({ description: 'A number' }) @IsInt() n!: number;
}

/** Answers `/ask n` with `answer n`. */
@Command({ name: 'ask', description: 'Answers with its number', options: AskOptions })
export class Ask {
  run(_ctx: CommandContext<AskOptions>, { n }: AskOptions) {
    return `answer ${n}`;
  }
}

/** Echoes `m ...` messages; a message `poison` always throws. */
export class Echo {
  @OnMessage(/^m /)
  echo(ctx: MessageContext) {
    return `echo ${ctx.message.content}`;
  }

  @OnMessage(/^poison/)
  poison(): never {
    throw new Error('this handler always fails');
  }
}

/** The harness's own bot, never started: it only provides the emulator, people and boards. */
class NeverStarted {
  @OnEvent('never.sent')
  noop() {}
}

/** A platform for replica tests: its rate limit raised unless said otherwise. */
export function replicaPlatform(requests = 1_000_000): Promise<TestPlatform> {
  return createTestPlatform({
    handlers: [NeverStarted],
    start: false,
    emulator: { rateLimit: { requests } },
  });
}

/** One log line of a replica. */
export type LogLine = Record<string, unknown> & { msg?: string };

/** A replica in this process: the bot, and its log lines. */
export interface Replica {
  bot: Bot;
  lines: LogLine[];
}

/**
 * A replica of the test bot on `platform`, sharing `url`'s Redis under the key prefix `prefix`.
 * @param options - more `redis()` options (a short lease, a delivery bound...)
 * @param apiUrl - where it reaches the platform (a proxy in front of it)
 * @param bot - more `createBot` options (a health endpoint, no apology...)
 */
export function replica(
  platform: TestPlatform,
  url: string,
  prefix: string,
  options: RedisScaleOptions = {},
  apiUrl: string = platform.urls.apiUrl,
  bot: Pick<BotOptions, 'health' | 'errorReply'> = {},
): Replica {
  const lines: LogLine[] = [];
  const logger = pino(
    { level: 'info' },
    {
      write: (text: string) => {
        lines.push(JSON.parse(text) as LogLine);
      },
    },
  );
  const created = createBot({
    token: platform.token,
    apiUrl,
    handlers: [Ask, Echo],
    handleSignals: false,
    logger,
    scale: redis({ url, keyPrefix: prefix, leaseMs: 900, ...options }),
    ...bot,
  });
  return { bot: created, lines };
}

/**
 * A replica of another bot on `platform` (its own handlers and options), sharing `url`'s Redis under
 * `keyPrefix`, silent unless given a logger, with a short lease.
 * @param options - the bot's handlers and any other `createBot` option
 * @param scale - more `redis()` options (a backlog bound...)
 */
export function replicaOf(
  platform: TestPlatform,
  url: string,
  keyPrefix: string,
  options: Omit<BotOptions, 'token' | 'scale'>,
  scale: RedisScaleOptions = {},
): Bot {
  return createBot({
    token: platform.token,
    apiUrl: platform.urls.apiUrl,
    handleSignals: false,
    logger: false,
    ...options,
    scale: redis({ url, keyPrefix, leaseMs: 900, ...scale }),
  });
}

/** A key prefix of its own for each test. */
export const freshPrefix = () => `t${randomUUID().slice(0, 8)}`;

/**
 * The base of the bot's keys under `prefix`, as docs/scaling.md tells an operator to find it:
 * `<prefix>:{<app id>:<first 12 hex of the SHA-256 of the API URL>}`.
 */
export function keyBase(platform: TestPlatform, prefix: string): string {
  const hash = createHash('sha256').update(platform.urls.apiUrl).digest('hex').slice(0, 12);
  return `${prefix}:{${platform.bot.app.id}:${hash}}`;
}

/** The bot's messages on a board, oldest first. */
export function botMessages(messages: readonly Message[], botUserId: string): Message[] {
  return messages.filter((m) => m.author === botUserId);
}

/** Resolves when `test` holds, checking every 50 ms; fails after `timeoutMs` with `explain()`. */
export async function eventually(
  test: () => Promise<boolean>,
  timeoutMs: number,
  explain: () => Promise<string> | string,
) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await test()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out: ${await explain()}`);
}
