import type {
  App,
  Board,
  Command,
  CommandDefinition,
  EditMessageBody,
  InteractionResponseBody,
  ListMessagesQuery,
  Member,
  Message,
  SendMessageBody,
  UserProfile,
} from '@boardbot/protocol';
import type { Dispatcher } from 'undici';
import { type CallScope, currentCallScope } from './call-scope.js';
import { AbortedError } from './errors.js';
import { RestEventEmitter, type RestEventListener, type RestEvents } from './events.js';
import { type RequestOptions, type ResolvedRestOptions, type RestClientOptions, resolveOptions } from './options.js';
import { type IterateMessagesOptions, iterateMessages } from './paging.js';
import { Buckets } from './ratelimit/buckets.js';
import type { Call } from './request/call.js';
import { Executor } from './request/executor.js';
import { HeaderSets } from './request/headers.js';
import { secretsOf } from './request/redact.js';
import { listOf, recordOf } from './request/shape.js';
import { Agent } from './request/undici-agent.js';
import { Sleeper } from './retry/sleeper.js';
import * as routes from './routes.js';
import { CallTracer } from './trace/call-tracer.js';
import { userAgent } from './user-agent.js';

// Keep idle sockets long enough to be reused between a bot's bursts, not forever.
const KEEP_ALIVE_MS = 30_000;

/**
 * The client of the platform's app API (CONTRACT "Endpoints" 1–12): typed calls over undici with
 * keep-alive, a per-credential rate-limit queue that never sends a request known to be limited,
 * retries with back-off and an automatic `Idempotency-Key` on every POST, and typed errors.
 * @example
 * const rest = new RestClient({ token: process.env.BOARDBOT_TOKEN });
 * const [general] = await rest.listBoards();
 * await rest.sendMessage(general.id, { content: 'hello' });
 * await rest.close();
 */
export class RestClient {
  /** The options in force, defaults filled in. */
  readonly options: Readonly<ResolvedRestOptions>;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly emitter: RestEventEmitter;
  private readonly buckets: Buckets;
  private readonly sleeper = new Sleeper();
  private readonly executor: Executor;
  private readonly token: string | undefined;
  private closed = false;
  /** The scope of a facade made by {@link RestClient.scoped}. */
  private scope: CallScope | undefined;
  private closing: Promise<void> | undefined;

  /** @param options - token, base URL, dispatcher, logger, timeouts, retry and queue bounds */
  constructor(options: RestClientOptions = {}) {
    const o = resolveOptions(options);
    this.options = o;
    this.token = options.token;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: KEEP_ALIVE_MS });
    this.emitter = new RestEventEmitter(o.logger);
    this.buckets = new Buckets(
      {
        now: o.now,
        maxWaitMs: o.maxRateLimitWaitMs,
        maxQueued: o.maxQueued,
        queued: 0,
        emitter: this.emitter,
        logger: o.logger,
      },
      options.sharedRateLimit,
    );
    const url = new URL(o.baseUrl);
    this.executor = new Executor({
      dispatcher: this.dispatcher,
      origin: url.origin,
      basePath: url.pathname.replace(/\/+$/, ''),
      token: options.token,
      headers: new HeaderSets(userAgent(o.userAgentSuffix), options.token),
      options: o,
      buckets: this.buckets,
      sleeper: this.sleeper,
      emitter: this.emitter,
      tracer: new CallTracer(o.tracerProvider),
      isClosed: () => this.closed,
    });
  }

  /**
   * Listens to `rateLimited` (the queue waits), `retry` (an attempt failed and will be retried) or
   * `response` (an answer arrived). Payloads never carry a token.
   * @param name - the event
   * @param listener - called with its payload
   */
  on<K extends keyof RestEvents>(name: K, listener: RestEventListener<K>): this {
    this.emitter.on(name, listener);
    return this;
  }

  /**
   * Removes a listener.
   * @param name - the event
   * @param listener - the function given to `on`
   */
  off<K extends keyof RestEvents>(name: K, listener: RestEventListener<K>): this {
    this.emitter.off(name, listener);
    return this;
  }

  /**
   * A facade of this client for one unit of work (a bot's handler run), as grammY hands each update
   * its own `Api`: it shares the client's queues and connections, and its calls carry `scope` (the
   * work's options, and the next of its keys on each write) wherever they are made; inside another
   * scope's async flow, that scope wins.
   * @param scope - the work's options and write keys
   */
  scoped(scope: CallScope): RestClient {
    const facade: RestClient = Object.create(this);
    facade.scope = scope;
    return facade;
  }

  /**
   * The call's options over the ones it inherits from its scope, and its write key (POST 5 and 12,
   * PATCH 6): the scope's next one, unless the call gives its own.
   */
  private optionsOf(call: Call, o: RequestOptions | undefined): RequestOptions | undefined {
    const scope = currentCallScope() ?? this.scope;
    if (scope === undefined) return o;
    // A call that brings its own key takes no ordinal: the scope's later writes keep their keys however
    // many such calls it makes (a streamed answer's edits, whose number varies from run to run).
    const write = (call.method === 'POST' || call.method === 'PATCH') && o?.idempotencyKey === undefined;
    const inherited = write
      ? { ...scope.options, idempotencyKey: `${scope.keys.prefix}${scope.keys.next++}` }
      : scope.options;
    return inherit(inherited, o);
  }

  private async record<T>(call: Call, o: RequestOptions | undefined): Promise<T> {
    const body = await this.executor.run(call, this.optionsOf(call, o));
    return recordOf<T>(body, errorContext(call), () => secretsOf(this.token, call));
  }

  private async list<T>(call: Call, key: string, o: RequestOptions | undefined): Promise<T[]> {
    const body = await this.executor.run(call, this.optionsOf(call, o));
    return listOf<T>(body, key, errorContext(call), () => secretsOf(this.token, call));
  }

  /** Boards the app is installed on (1). @param o - per-call options */
  async listBoards(o?: RequestOptions): Promise<Board[]> {
    return this.list<Board>(routes.listBoards(), 'boards', o);
  }

  /** One board (2). @param boardId - the board @param o - per-call options */
  async getBoard(boardId: string, o?: RequestOptions): Promise<Board> {
    return this.record<Board>(routes.getBoard(boardId), o);
  }

  /** A board's members (3). @param boardId - the board @param o - per-call options */
  async listMembers(boardId: string, o?: RequestOptions): Promise<Member[]> {
    return this.list<Member>(routes.listMembers(boardId), 'members', o);
  }

  /**
   * One page of a board's messages, highest `seq` first (4).
   * @param boardId - the board
   * @param query - `before` (exclusive seq cursor) and `limit` (1..100, server default 50)
   * @param o - per-call options
   */
  async listMessages(boardId: string, query: ListMessagesQuery = {}, o?: RequestOptions): Promise<Message[]> {
    return this.list<Message>(routes.listMessages(boardId, query), 'messages', o);
  }

  /**
   * Every message of a board, newest first, fetched page by page as the loop asks for more.
   * @param boardId - the board
   * @param options - `before`, `pageSize` (≤ 100, default 100), `untilSeq` (exclusive lower bound), `max`
   * @param o - per-call options, used for every page
   * @example for await (const m of rest.iterateMessages(boardId, { untilSeq: lastSeen })) handle(m);
   */
  iterateMessages(
    boardId: string,
    options: IterateMessagesOptions = {},
    o?: RequestOptions,
  ): AsyncIterableIterator<Message> {
    const ctx = errorContext(routes.listMessages(boardId));
    return iterateMessages((query) => this.listMessages(boardId, query, o), options, ctx);
  }

  /**
   * Sends a message as the app (5). Carries an `Idempotency-Key`, so retries never post twice.
   * @param boardId - the board
   * @param body - `content`, `embeds`, `replyTo`
   * @param o - per-call options (give `idempotencyKey` to make a send idempotent across restarts)
   */
  async sendMessage(boardId: string, body: SendMessageBody, o?: RequestOptions): Promise<Message> {
    return this.record<Message>(routes.sendMessage(boardId, body, this.options.validateRequests), o);
  }

  /**
   * Edits one of the app's messages (6).
   * @param boardId - the board
   * @param messageId - the message
   * @param body - `{ content }`
   * @param o - per-call options
   */
  async editMessage(boardId: string, messageId: string, body: EditMessageBody, o?: RequestOptions): Promise<Message> {
    return this.record<Message>(routes.editMessage(boardId, messageId, body, this.options.validateRequests), o);
  }

  /**
   * Deletes one of the app's messages (7); deleting twice is fine (CONTRACT: idempotent 204).
   * @param boardId - the board
   * @param messageId - the message
   * @param o - per-call options
   */
  async deleteMessage(boardId: string, messageId: string, o?: RequestOptions): Promise<void> {
    const call = routes.deleteMessage(boardId, messageId);
    await this.executor.run(call, this.optionsOf(call, o));
  }

  /** A user's public profile (8). @param userId - the user @param o - per-call options */
  async getUser(userId: string, o?: RequestOptions): Promise<UserProfile> {
    return this.record<UserProfile>(routes.getUser(userId), o);
  }

  /** The app the token belongs to (9); its `bot_user_id` authors the app's messages. @param o - per-call options */
  async getApp(o?: RequestOptions): Promise<App> {
    return this.record<App>(routes.getApp(), o);
  }

  /** The app's registered commands (10). @param o - per-call options */
  async listCommands(o?: RequestOptions): Promise<Command[]> {
    return this.list<Command>(routes.listCommands(), 'commands', o);
  }

  /**
   * Replaces the app's whole command set (11) and returns it as registered.
   * @param commands - every command the app should have
   * @param o - per-call options
   */
  async replaceCommands(commands: readonly CommandDefinition[], o?: RequestOptions): Promise<Command[]> {
    return this.list<Command>(routes.replaceCommands(commands, this.options.validateRequests), 'commands', o);
  }

  /**
   * Answers an interaction (12): the first answer is the reply, later ones follow-ups. Sent without
   * the app token; the interaction token is the credential and never appears in errors or logs.
   * @param interactionToken - `interaction.token` from the gateway event
   * @param body - `content` and `embeds`
   * @param o - per-call options
   */
  async answerInteraction(
    interactionToken: string,
    body: InteractionResponseBody,
    o?: RequestOptions,
  ): Promise<Message> {
    return this.record<Message>(routes.answerInteraction(interactionToken, body, this.options.validateRequests), o);
  }

  /**
   * Stops the client: calls waiting for the rate limit or a back-off fail with `AbortedError`
   * (`BOARDBOT_ABORTED`), attempts in flight finish, and the client's own dispatcher closes its
   * sockets (a dispatcher passed in options is left open). Safe to call twice.
   */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closed = true;
    this.buckets.close((call) => new AbortedError('closed', call));
    this.sleeper.cancelAll();
    this.closing = this.ownsDispatcher ? this.dispatcher.close() : Promise.resolve();
    return this.closing;
  }
}

/** A call's options over the ones it inherits: its own defined fields win, and both signals apply. */
function inherit(inherited: RequestOptions, own: RequestOptions | undefined): RequestOptions {
  if (own === undefined) return inherited;
  const merged: RequestOptions = { ...inherited };
  for (const [key, value] of Object.entries(own)) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  if (inherited.signal && own.signal) merged.signal = AbortSignal.any([inherited.signal, own.signal]);
  return merged;
}

function errorContext(call: Call) {
  return { method: call.method, path: call.logPath };
}
