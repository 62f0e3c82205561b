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
import type { RestEventListener, RestEvents } from './events.js';
import { type RequestOptions, type ResolvedRestOptions, type RestClientOptions, resolveOptions } from './options.js';
import { type IterateMessagesOptions, iterateMessages } from './paging.js';
import type { Call } from './request/call.js';
import { secretsOf } from './request/redact.js';
import { listOf, recordOf } from './request/shape.js';
import * as routes from './routes.js';
import { Transport } from './transport.js';
import type { CallCarrier } from './work.js';

// How `forWork` hands a new client the parts it shares: an option no caller outside this module can name.
const FOR_WORK = Symbol('forWork');

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
  /** What every client made from the first one shares: connections, queues, listeners, closing. */
  private readonly shared: Transport;
  /** What the calls of a work's client carry (see {@link RestClient.forWork}); none for the bot's own client. */
  private readonly carrier: CallCarrier | undefined;

  /** @param options - token, base URL, dispatcher, logger, timeouts, retry and queue bounds */
  constructor(options: RestClientOptions = {}) {
    const work = (options as { [FOR_WORK]?: { shared: Transport; carrier: CallCarrier } })[FOR_WORK];
    if (work) {
      this.shared = work.shared;
      this.carrier = work.carrier;
      this.options = work.shared.options;
      return;
    }
    this.carrier = undefined;
    const o = resolveOptions(options);
    this.options = o;
    this.shared = new Transport(options, o);
  }

  /**
   * Listens to `rateLimited` (the queue waits), `retry` (an attempt failed and will be retried) or
   * `response` (an answer arrived). Payloads never carry a token.
   * @param name - the event
   * @param listener - called with its payload
   */
  on<K extends keyof RestEvents>(name: K, listener: RestEventListener<K>): this {
    this.shared.emitter.on(name, listener);
    return this;
  }

  /**
   * Removes a listener.
   * @param name - the event
   * @param listener - the function given to `on`
   */
  off<K extends keyof RestEvents>(name: K, listener: RestEventListener<K>): this {
    this.shared.emitter.off(name, listener);
    return this;
  }

  /**
   * A client for one unit of work (a bot's handler run), as grammY hands each update its own `Api`:
   * it shares this client's connections, rate-limit queues, listeners and closing, and each of its
   * calls carries what `carrier` gives: the work's options, and for a write without a key of its
   * own, the work's next key. Calls made on this client itself carry nothing of the work. It is of
   * this client's class (a subclass that passes its options on to `super` keeps its overrides).
   * @param carrier - the work's options and write keys
   * @example const runRest = rest.forWork({ options: () => ({ requestId }), nextWriteKey: () => `job-7:${n++}` });
   */
  forWork(carrier: CallCarrier): RestClient {
    const Client = this.constructor as new (options: RestClientOptions) => RestClient;
    return new Client({ [FOR_WORK]: { shared: this.shared, carrier } } as RestClientOptions);
  }

  /**
   * Runs the call with its options over the ones its work's carrier gives, and its write key (POST 5 and 12,
   * PATCH 6): the work's next one, taken now, unless the call gives its own. A call that brings its
   * own key takes none: the work's later writes keep their keys however many such calls it makes (a
   * streamed answer's edits, whose number varies from run to run).
   */
  private send(call: Call, o: RequestOptions | undefined): Promise<unknown> {
    const carrier = this.carrier;
    if (carrier === undefined) return this.shared.executor.run(call, o);
    const write = (call.method === 'POST' || call.method === 'PATCH') && o?.idempotencyKey === undefined;
    const inherited = write ? { ...carrier.options(), idempotencyKey: carrier.nextWriteKey() } : carrier.options();
    return this.shared.executor.run(call, inherit(inherited, o));
  }

  private async record<T>(call: Call, o: RequestOptions | undefined): Promise<T> {
    const body = await this.send(call, o);
    return recordOf<T>(body, errorContext(call), () => secretsOf(this.shared.token, call));
  }

  private async list<T>(call: Call, key: string, o: RequestOptions | undefined): Promise<T[]> {
    const body = await this.send(call, o);
    return listOf<T>(body, key, errorContext(call), () => secretsOf(this.shared.token, call));
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
    await this.send(routes.deleteMessage(boardId, messageId), o);
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
   * sockets (a dispatcher passed in options is left open). The clients made by
   * {@link RestClient.forWork} share it: closing any of them closes them all. Safe to call twice.
   */
  close(): Promise<void> {
    return this.shared.close();
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
