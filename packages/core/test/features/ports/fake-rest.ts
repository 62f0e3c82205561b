import type { BotRest, RequestOptions } from '@boardbot/core';
import type { App, Command, CommandDefinition, Message, SendMessageBody } from '@boardbot/protocol';
import type { CallCarrier } from '@boardbot/rest';

/** A write the fake took: where, what, and the key and request id it came with. */
export interface FakeWrite {
  boardId: string;
  body: SendMessageBody;
  idempotencyKey: string | undefined;
  requestId: string | undefined;
}

/** What every unit of work's view of the fake shares: its app, commands and writes. */
interface FakeState {
  app: App;
  commands: Command[];
  writes: FakeWrite[];
  closed: boolean;
}

const notFaked = (call: string) => () => Promise.reject(new Error(`${call} is not faked`));

/**
 * The REST port's second implementation beside `RestClient`: no HTTP at all, a platform of one app in
 * memory that keeps the commands registered and the messages sent. As the real client does, a unit of
 * work's view (`forWork`) gives each write without a key of its own the work's next key.
 */
export class FakeRest implements BotRest {
  // The identity a bot keeps per-client caches under (the real client's resolved options).
  readonly options = {} as BotRest['options'];
  readonly listBoards = notFaked('listBoards');
  readonly getBoard = notFaked('getBoard');
  readonly listMembers = notFaked('listMembers');
  readonly listMessages = notFaked('listMessages');
  readonly editMessage = notFaked('editMessage');
  readonly deleteMessage = notFaked('deleteMessage');
  readonly getUser = notFaked('getUser');
  readonly answerInteraction = notFaked('answerInteraction');
  readonly iterateMessages = () => {
    throw new Error('iterateMessages is not faked');
  };

  /**
   * @param state - the platform the fake stands for
   * @param carrier - the unit of work this view belongs to, if any
   */
  constructor(
    readonly state: FakeState,
    private readonly carrier?: CallCarrier,
  ) {}

  /** A fake platform with one app, `app`. */
  static of(app: App): FakeRest {
    return new FakeRest({ app, commands: [], writes: [], closed: false });
  }

  async getApp(): Promise<App> {
    return this.state.app;
  }

  async listCommands(): Promise<Command[]> {
    return this.state.commands;
  }

  async replaceCommands(commands: readonly CommandDefinition[]): Promise<Command[]> {
    this.state.commands = commands.map((c, i) => ({ ...c, id: `cmd-${i}` }) as Command);
    return this.state.commands;
  }

  async sendMessage(boardId: string, body: SendMessageBody, o?: RequestOptions): Promise<Message> {
    // As the real client: the key is taken when the write is called, unless it brings its own.
    const idempotencyKey = o?.idempotencyKey ?? this.carrier?.nextWriteKey();
    const requestId = o?.requestId ?? this.carrier?.options().requestId;
    this.state.writes.push({ boardId, body, idempotencyKey, requestId });
    const id = `sent-${this.state.writes.length}`;
    return { id, board_id: boardId, content: body.content ?? null, author: this.state.app.bot_user_id } as Message;
  }

  on(): this {
    return this;
  }

  off(): this {
    return this;
  }

  forWork(carrier: CallCarrier): BotRest {
    return new FakeRest(this.state, carrier);
  }

  async close(): Promise<void> {
    this.state.closed = true;
  }
}
