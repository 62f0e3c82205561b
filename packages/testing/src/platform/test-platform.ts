import type { Emulator, EmulatorUrls } from '@boardbot/emulator';
import type { ControlClient } from '@boardbot/emulator/control';
import type { Board, Message } from '@boardbot/protocol';
import type { ActivityFeed } from '../activity/activity-feed.js';
import type { Journal } from '../activity/journal.js';
import { type BotObserver, eventKey } from '../bot/bot-observer.js';
import type { TestBot, WaitOptions } from '../bot/test-bot.js';
import { BotStartError, PlatformClosedError, TestOptionsError, WaitTimeoutError } from '../errors.js';
import type { CapturedLogs } from '../logs/captured-logs.js';
import { Person, type PersonOptions } from '../people/person.js';
import { timeoutReport } from '../report/timeout-report.js';
import type { Waiters } from '../waiting/waiters.js';
import type { Directory } from './directory.js';

/** Usernames the control API accepts. */
const USERNAME = /^[a-z0-9_.-]{1,32}$/;

/** Rounds of `settle()` before it gives up on a bot that never stops reacting to itself. */
const SETTLE_ROUNDS = 50;

/** The parts of a test platform, wired by `createTestPlatform`. */
export interface TestPlatformParts {
  emulator: Emulator;
  urls: EmulatorUrls;
  control: ControlClient;
  /** Closes the control client's calls (they fail with `BOARDBOT_TEST_CLOSED` after `close()`). */
  controlGate: { close(): Promise<void> };
  directory: Directory;
  journal: Journal;
  waiters: Waiters;
  feed: ActivityFeed;
  observer: BotObserver;
  bot: TestBot;
  logs: CapturedLogs;
  timeoutMs: number;
  defaultBoard: string;
}

/** Options of {@link TestPlatform.createBoard}. */
export interface CreateBoardOptions {
  description?: string;
  /** Install the bot's app on the new board (the bot sees it after its next `ready`). @defaultValue true */
  install?: boolean;
}

/**
 * An in-process platform for one test file: its own emulator (in-memory, random loopback port),
 * the real bot runtime connected to it over HTTP and SSE, and people who talk to the bot. Create
 * it with `createTestPlatform()`, close it with `close()`.
 */
export class TestPlatform {
  /** The emulator (advanced use: `emulator.app.inject`, `emulator.platform`). */
  readonly emulator: Emulator = this.parts.emulator;
  /** Its URLs: `apiUrl` (the app API), `controlUrl`, `playgroundUrl`. */
  readonly urls: EmulatorUrls = this.parts.urls;
  /** The control API, typed (advanced use: boards, members, interactions). */
  readonly control: ControlClient = this.parts.control;
  /** The bot as people see it: what it posts, edits and deletes, and waits for its next action. */
  readonly bot: TestBot = this.parts.bot;
  /** The bot's log, captured instead of printed. */
  readonly logs: CapturedLogs = this.parts.logs;
  /** How long waits last by default, in milliseconds. */
  readonly timeoutMs: number = this.parts.timeoutMs;
  private readonly people = new Map<string, Person>();
  /** Boards the harness installed the bot on after it started (not in its `ready` frame yet). */
  private readonly installed = new Set<string>();
  private baseline = 0;
  private closing: Promise<void> | undefined;

  /** @param parts - wired by `createTestPlatform` */
  constructor(private readonly parts: TestPlatformParts) {}

  /** The control API's admin key (the playground URL carries it too). */
  get adminKey(): string {
    return this.emulator.adminKey;
  }

  /** The bot's app token (the emulator's dev token). */
  get token(): string {
    return this.emulator.devToken;
  }

  /**
   * A person, by username: the seeded `alice` (owner of both boards) and `bob` (member), or anyone
   * else, created on first use. The same username gives the same person.
   *
   * @param username - `^[a-z0-9_.-]{1,32}$`
   * @param options - display name and role, used the first time
   */
  person(username: string, options: PersonOptions = {}): Person {
    if (!USERNAME.test(username)) {
      throw new TestOptionsError(`"${username}" is not a valid username: use 1 to 32 of a-z, 0-9, _ . -`);
    }
    let person = this.people.get(username);
    if (!person) {
      const { control, directory, defaultBoard } = this.parts;
      person = new Person(username, options, { control, directory, bot: this.bot, defaultBoard });
      this.people.set(username, person);
    }
    return person;
  }

  /** A board by name (`general` and `random` are seeded). */
  board(name: string): Promise<Board> {
    return this.parts.directory.board(name);
  }

  /**
   * Creates a board and, unless told otherwise, installs the bot's app on it. The running bot
   * learns about it on its next `ready`; boards that exist before the bot starts are simpler.
   */
  async createBoard(name: string, options: CreateBoardOptions = {}): Promise<Board> {
    const body = options.description === undefined ? { name } : { name, description: options.description };
    const board = await this.control.createBoard(body);
    this.parts.directory.addBoard(board);
    if (options.install !== false) {
      await this.control.install(this.bot.app.id, board.id);
      this.installed.add(board.id);
    }
    return board;
  }

  /**
   * Every message of a board, oldest first, tombstones included (read from the platform now).
   * @param board - the board's name; the harness's default board (`board` option, `general`) when
   *   none is given, not every board
   */
  async messages(board: string = this.parts.defaultBoard): Promise<Message[]> {
    const { id } = await this.board(board);
    const all: Message[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await this.control.messages(id, before === undefined ? { limit: 100 } : { limit: 100, before });
      all.push(...page);
      const last = page.at(-1);
      if (page.length < 100 || !last) break;
      before = last.seq;
    }
    return all.reverse();
  }

  /**
   * Starts the bot (when the platform was created with `start: false`).
   * @throws BotStartError with the bot's log when `start()` fails
   */
  async start(): Promise<void> {
    if (this.closing) throw new PlatformClosedError('start()');
    try {
      await this.bot.runtime.start();
    } catch (error) {
      const log = this.logs.text({ atLeast: 'warn' });
      throw new BotStartError(
        `The bot failed to start against the test platform: ${error instanceof Error ? error.message : String(error)}` +
          (log ? `\nBot log (warn and above):\n${log.replace(/^/gm, '  ')}` : ''),
        error,
      );
    }
    // Activity before this point happened before the bot listened: it is not waited for.
    this.baseline = await this.parts.feed.cursor();
  }

  /**
   * Waits until the bot has received and handled everything that happened on its boards so far,
   * including the events its own messages raise, so a test can assert that something did *not*
   * happen without sleeping. Timers the bot set (a message deleted in a minute) are not waited for.
   *
   * @param options - timeout of each step
   * @throws WaitTimeoutError when the bot does not receive or finish its events in time
   */
  async settle(options: WaitOptions = {}): Promise<void> {
    if (this.closing) throw new PlatformClosedError('settle()');
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const { feed, journal, waiters } = this.parts;
    let cursor = await feed.cursor();
    for (let round = 0; round < SETTLE_ROUNDS; round++) {
      const target = cursor;
      await waiters.until(
        () => (journal.lastId >= target ? true : undefined),
        timeoutMs,
        () =>
          `expected the activity stream to reach frame ${target} within ${timeoutMs} ms; it is at ${journal.lastId}.`,
      );
      if (this.bot.runtime.state !== 'running') return;
      await waiters.until(
        () => (this.undelivered().length === 0 ? true : undefined),
        timeoutMs,
        () => this.settleReport(timeoutMs, [`It has not received: ${this.undelivered().slice(0, 10).join(', ')}.`]),
      );
      let idle = false;
      void this.bot.runtime.idle().then(() => {
        idle = true;
        waiters.notify();
      });
      await waiters.until(
        () => (idle ? true : undefined),
        timeoutMs,
        () => this.settleReport(timeoutMs, [`It is still handling ${this.bot.runtime.pending} events.`]),
      );
      const after = await feed.cursor();
      if (after === cursor) return;
      cursor = after;
    }
    throw new WaitTimeoutError(
      `settle() gave up after ${SETTLE_ROUNDS} rounds: the bot keeps reacting to what it does (does it answer its own messages?).`,
      timeoutMs,
    );
  }

  /**
   * Stops the bot (gracefully), the activity stream, the control client and the emulator. Waits
   * still pending fail with `BOARDBOT_TEST_CLOSED`. Safe to call twice.
   */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.parts.waiters.fail(new PlatformClosedError('waiting'));
    await this.bot.runtime.stop().catch(() => {});
    await this.parts.feed.close();
    await this.parts.controlGate.close();
    await this.emulator.close();
  }

  /** Events the bot should have received (on its boards, after it started) but has not. */
  private undelivered(): string[] {
    const { journal, observer } = this.parts;
    const boards = new Set([...observer.boardIds, ...this.installed]);
    const expected = new Map<string, number>();
    for (const r of journal.records) {
      if (r.id <= this.baseline) continue;
      let key: string | undefined;
      if (r.message && r.name.startsWith('message.') && boards.has(r.message.board_id)) {
        key = eventKey(r.name, r.message.id);
      } else if (r.name === 'interaction.create' && r.interaction?.app_id === this.bot.app.id) {
        key = eventKey(r.name, r.interaction.id);
      }
      if (key !== undefined) expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    return [...expected].filter(([key, n]) => observer.count(key) < n).map(([key]) => key);
  }

  private settleReport(timeoutMs: number, notes: string[]): string {
    return timeoutReport({
      expectation: 'the bot to receive and handle everything that happened',
      timeoutMs,
      unclaimed: [],
      claimed: 0,
      notes,
      logs: this.logs,
      boardName: (id) => this.parts.directory.boardName(id),
    });
  }
}
