import type {
  App,
  Command,
  CommandDefinition,
  Embed,
  Logger,
  Message,
  ReadyEvent,
  UserProfile,
} from '@boardbot/protocol';

/** Options every REST call accepts as its last argument (the `@boardbot/rest` shape). */
export interface RequestOptions {
  signal?: AbortSignal;
  idempotencyKey?: string;
  /** Correlation id, sent as `X-Request-Id`. */
  requestId?: string;
  /** Per-event child logger for the call's own lines. */
  logger?: Logger;
}

/** The REST calls the runtime makes (a subset of `@boardbot/rest`'s `RestClient`). */
export interface BotRest {
  getApp(options?: RequestOptions): Promise<App>;
  getUser(userId: string, options?: RequestOptions): Promise<UserProfile>;
  listCommands(options?: RequestOptions): Promise<Command[]>;
  replaceCommands(defs: CommandDefinition[], options?: RequestOptions): Promise<Command[]>;
  listMessages(
    boardId: string,
    query?: { before?: number; limit?: number },
    options?: RequestOptions,
  ): Promise<Message[]>;
  sendMessage(
    boardId: string,
    body: { content?: string; embeds?: Embed[]; replyTo?: string },
    options?: RequestOptions,
  ): Promise<Message>;
  editMessage(
    boardId: string,
    messageId: string,
    body: { content: string },
    options?: RequestOptions,
  ): Promise<Message>;
  deleteMessage(boardId: string, messageId: string, options?: RequestOptions): Promise<void>;
  answerInteraction(
    token: string,
    body: { content?: string; embeds?: Embed[] },
    options?: RequestOptions,
  ): Promise<Message>;
  close(): Promise<void>;
}

/** What the runtime passes when it builds the gateway client. */
export interface GatewayFactoryOptions {
  token: string;
  baseUrl: string;
  logger: Logger;
}

/** What the runtime needs of a gateway client (the `@boardbot/gateway` `GatewayClient` shape). */
export interface BotGateway {
  /** Opens the stream; resolves with the first `ready` payload. */
  connect(): Promise<ReadyEvent>;
  on(event: 'dispatch', listener: (event: { name: string; id: string; data: unknown }) => void): unknown;
  on(event: 'gap', listener: (info: { lastEventId: string | undefined; ready: ReadyEvent }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  close(): Promise<void>;
}
