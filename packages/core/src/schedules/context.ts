import type { Message } from '@boardbot/protocol';
import type { BaseContext, ReplyBody } from '../kernel/context.js';
import type { RunSubject, Scoped } from '../kernel/scoped.js';

/** The tick a scheduled method runs for. */
export interface Tick {
  /** The schedule's name (`Class.method`, unless named). */
  readonly name: string;
  /** The tick's scheduled time (not when it started): the same on every instance of the bot. */
  readonly scheduledAt: Date;
  /** Whether it is a tick missed while no instance ran, run late on start. */
  readonly missed: boolean;
}

/** What an `@Every` or `@Cron` method receives. */
export interface ScheduleContext extends BaseContext {
  readonly kind: 'schedule';
  /** The tick being run; writes made through the context or `ctx.rest` carry keys derived from it. */
  readonly tick: Tick;
  /** Posts a message on a board. */
  send(boardId: string, body: ReplyBody): Promise<Message>;
  /**
   * Opens a session or a conversation. A tick serves no person or board, so name the ones a
   * session kept per board or per person is opened for.
   *
   * @param definition - what to open
   * @param subject - the board and/or person it is opened for
   * @example const settings = await ctx.session(BoardSettings, { boardId }).get();
   */
  session<H>(definition: Scoped<H>, subject?: Partial<RunSubject>): H;
}

declare module '../kernel/context.js' {
  interface HandlerContexts {
    schedule: ScheduleContext;
  }
}
