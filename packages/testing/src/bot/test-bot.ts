import type { Bot } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import type { ActivityRecord, Journal } from '../activity/journal.js';
import type { CapturedLogs } from '../logs/captured-logs.js';
import { type BoardNames, describeFilter, type MessageFilter, matchesFilter } from '../report/message-filter.js';
import { timeoutReport } from '../report/timeout-report.js';
import type { Waiters } from '../waiting/waiters.js';
import type { BotObserver } from './bot-observer.js';
import { type AnswerWait, finishedAnswer } from './streamed-answer.js';

/** Options of every wait. */
export interface WaitOptions {
  /** How long to wait before failing with a report. @defaultValue the platform's `timeoutMs` */
  timeoutMs?: number;
}

/** The app the bot runs as, as the platform knows it. */
export interface TestApp {
  id: string;
  name: string;
  /** The user id that authors the bot's messages. */
  bot_user_id: string;
}

/** Most unclaimed actions a report lists (the latest ones). */
const REPORTED = 15;

type Kind = 'message.create' | 'message.edit' | 'message.delete';

/** What {@link TestBot} is built from (the platform wires it). */
export interface TestBotDeps {
  runtime: Bot;
  app: TestApp;
  journal: Journal;
  waiters: Waiters;
  logs: CapturedLogs;
  observer: BotObserver;
  boardName: BoardNames;
  timeoutMs: number;
}

/**
 * The bot under test as people see it: what it posts, edits and deletes on the platform (read from
 * the emulator's activity stream), and waits for its next action. Each action is returned by one wait
 * only ("claimed"), so consecutive waits walk through what the bot did, in order.
 */
export class TestBot {
  /** The real runtime (`createBot`'s result), for `commands`, `state`, `stop()`... */
  readonly runtime: Bot;
  /** The app the bot runs as. */
  readonly app: TestApp;
  private readonly claimed = new Set<number>();

  /** @param deps - wired by `createTestPlatform` */
  constructor(private readonly deps: TestBotDeps) {
    this.runtime = deps.runtime;
    this.app = deps.app;
  }

  /** Whether the bot wrote `message`. */
  isOwn(message: Message): boolean {
    return message.author === this.app.bot_user_id;
  }

  /**
   * Every message the bot posted so far that matches `filter`, oldest first, each in its latest
   * state (edited content, or the tombstone once deleted). Waits do not change this list.
   */
  messages(filter: MessageFilter = {}): Message[] {
    const latest = new Map<string, Message>();
    for (const r of this.deps.journal.records) {
      if (!r.message || !this.isOwn(r.message) || !r.name.startsWith('message.')) continue;
      if (r.name === 'message.create' || latest.has(r.message.id)) latest.set(r.message.id, r.message);
    }
    return [...latest.values()].filter((m) => matchesFilter(m, filter, this.deps.boardName));
  }

  /**
   * Waits for the next message the bot posts that matches `filter` (including one it already posted
   * that no earlier wait returned), and returns it as it was posted.
   *
   * @param filter - which message, e.g. `{ replyTo: msg }` or `{ board: 'random' }`
   * @param options - timeout
   * @throws WaitTimeoutError with what the bot did instead
   */
  nextMessage(filter: MessageFilter = {}, options: WaitOptions = {}): Promise<Message> {
    return this.next('message.create', filter, options, `the bot to post a message${describeFilter(filter)}`);
  }

  /**
   * Waits for the next edit of one of the bot's messages that matches `filter` (matched against
   * the new state), and returns the message as edited.
   */
  nextEdit(filter: MessageFilter = {}, options: WaitOptions = {}): Promise<Message> {
    return this.next('message.edit', filter, options, `the bot to edit a message${describeFilter(filter)}`);
  }

  /**
   * Waits for the next deletion of one of the bot's messages that matches `filter` (`id` is the
   * usual one; content is gone from a tombstone), and returns the tombstone.
   */
  nextDelete(filter: MessageFilter = {}, options: WaitOptions = {}): Promise<Message> {
    return this.next('message.delete', filter, options, `the bot to delete a message${describeFilter(filter)}`);
  }

  /**
   * Waits for the bot's next streamed answer (`ctx.stream`) matching `filter` (`{ replyTo: msg }`,
   * or `{ interaction }` for a command); `final()` resolves once every part of it shows its final
   * text, with its parts and all their edits.
   *
   * @param filter - which answer: what it replies to, or the interaction it answers
   * @param options - timeout
   * @example const answer = await platform.bot.nextAnswer({ replyTo: question }).final();
   */
  nextAnswer(filter: MessageFilter, options: WaitOptions = {}): AnswerWait {
    const timeoutMs = options.timeoutMs ?? this.deps.timeoutMs;
    const editsOf = (id: string) =>
      this.deps.journal.records
        .filter((r) => r.name === 'message.edit' && r.message?.id === id)
        .map((r) => r.message as Message);
    const expectation = `the bot to finish a streamed answer${describeFilter(filter)}`;
    return {
      final: () =>
        this.deps.waiters.until(
          () => finishedAnswer(this.messages(filter), editsOf),
          timeoutMs,
          () => this.report(expectation, timeoutMs, []),
        ),
    };
  }

  /**
   * The general wait behind the `next*` calls, for the harness's own waits with a better
   * expectation and notes (e.g. an invocation's answer).
   *
   * @param kind - which action
   * @param filter - which message
   * @param options - timeout
   * @param expectation - what is awaited, in words
   */
  next(kind: Kind, filter: MessageFilter, options: WaitOptions, expectation: string): Promise<Message> {
    const timeoutMs = options.timeoutMs ?? this.deps.timeoutMs;
    const { interaction } = filter;
    const notes = () =>
      interaction === undefined
        ? []
        : this.invocationNotes(typeof interaction === 'string' ? interaction : interaction.id);
    return this.deps.waiters.until(
      () => this.claim(kind, filter),
      timeoutMs,
      () => this.report(expectation, timeoutMs, notes()),
    );
  }

  /** What a wait that timed out reports: what it awaited, and the bot's latest unclaimed actions. */
  private report(expectation: string, timeoutMs: number, notes: string[]): string {
    const unclaimed = this.unclaimed().slice(-REPORTED);
    const { logs, boardName } = this.deps;
    return timeoutReport({ expectation, timeoutMs, unclaimed, claimed: this.claimed.size, notes, logs, boardName });
  }

  /** Whether the bot received an invocation: the first question when it did not answer. */
  private invocationNotes(interactionId: string): string[] {
    const { observer } = this.deps;
    if (observer.count(`interaction.create:${interactionId}`) > 0) {
      return ['The bot received the invocation but has not answered it.'];
    }
    if (!observer.connected) {
      return [
        'The bot never connected to the gateway: was the platform created with start: false, or does ' +
          'your bot factory drop the base options it is given?',
      ];
    }
    return ['The bot has not received the invocation: its gateway may be disconnected (see the log).'];
  }

  private claim(kind: Kind, filter: MessageFilter): Message | undefined {
    for (const r of this.deps.journal.records) {
      if (r.name !== kind || !r.message || this.claimed.has(r.id) || !this.isOwn(r.message)) continue;
      if (!matchesFilter(r.message, filter, this.deps.boardName)) continue;
      this.claimed.add(r.id);
      return r.message;
    }
    return undefined;
  }

  /** The bot's actions no wait has returned yet. */
  private unclaimed(): ActivityRecord[] {
    return this.deps.journal.records.filter(
      (r) => r.name.startsWith('message.') && r.message && this.isOwn(r.message) && !this.claimed.has(r.id),
    );
  }
}
