import type { Board, BoardList, Member, MemberList, Message, MessageList, UserProfile } from '@boardbot/protocol';
import { ControlOptionsError } from './errors.js';
import { CONTROL_QUERY_DEFAULTS } from './schemas/defaults.js';
import type {
  CreateAppBody,
  CreateBoardBody,
  CreateUserBody,
  InvokeBody,
  PersonMessageBody,
  PersonRole,
  RotateTokenBody,
} from './schemas/requests.js';
import type {
  AppInfo,
  AppList,
  CreatedApp,
  EmulatorInfo,
  InteractionList,
  InteractionView,
  InvokedInteraction,
  PlatformState,
  ShownInteraction,
  UserList,
} from './schemas/responses.js';
import type { MessageWhy } from './schemas/why.js';
import { CONTROL_PATH, ControlTransport } from './transport.js';

// Node and browsers alike (the playground bundles this): `fetch` only, and type-only imports of the
// schemas, so none of the server's code reaches a bundle.

/** What fetch refuses in a header value: a NUL, CR or LF, or anything beyond Latin-1. */
const HEADER_UNSAFE = /[\0\n\r]|[^\0-\xff]/u;

/** Options of {@link ControlClient}. */
export interface ControlClientOptions {
  /**
   * The emulator: its origin (`http://127.0.0.1:8787`) or its control API base
   * (`http://127.0.0.1:8787/_emulator/v1`, what `emulator.listen()` gives as `controlUrl`).
   */
  url: string;
  /** The emulator's admin key: sent as a bearer token, never put in an error message. */
  adminKey: string;
  /**
   * The `fetch` to send with; tests and other hosts inject theirs. A `TypeError` it throws (a network
   * failure) becomes a {@link ControlUnreachableError}; anything else it throws passes through as is.
   * @defaultValue `globalThis.fetch`
   */
  fetch?: typeof fetch;
}

/** Paging of {@link ControlClient.messages}. */
export interface MessagePage {
  /** Only messages whose `seq` is below this. */
  before?: number;
  /** Most messages returned, 1 to 100. @defaultValue 50 */
  limit?: number;
}

/** Filter of {@link ControlClient.interactions}. */
export interface InteractionQuery {
  /** Only the interactions of this board. @defaultValue every board */
  boardId?: string;
  /** Most interactions returned, 1 to 100. @defaultValue 50 */
  limit?: number;
}

/** Options of {@link ControlClient.wait} and {@link ControlClient.invokeAndWait}. */
export interface AnswerWaitOptions {
  /** Answers to wait for, 1 to 100. @defaultValue 1 */
  answers?: number;
  /** Longest wait, in milliseconds (0 to 120000); then the interaction comes as it is. @defaultValue 5000 */
  timeoutMs?: number;
  /**
   * Also wait for the answers' final text: none still shows a streamed answer's placeholder or ends
   * with its cursor (see `isAnswerWriting` of `@boardbot/protocol`).
   * @defaultValue false
   */
  final?: boolean;
}

/**
 * The one client of the emulator's control API (docs/control-api.md): the people's side of the
 * platform, used by the CLI, the test harness and the playground. Every call sends the admin key as
 * a bearer token; an error answer throws {@link ControlApiError}, no answer at all
 * {@link ControlUnreachableError}. Results are typed by the schemas the emulator validates with.
 *
 * @example
 * const control = new ControlClient({ url: urls.controlUrl, adminKey: emulator.adminKey });
 * const { users, boards } = await control.state();
 */
export class ControlClient {
  readonly #http: ControlTransport;

  /**
   * @param options - where the emulator is, its admin key, and the `fetch` to use
   * @throws ControlOptionsError when the admin key cannot be sent as a header value
   */
  constructor(options: ControlClientOptions) {
    // Checked here, not by fetch: its refusal quotes the header value (the key) and, being a
    // TypeError, would read as an emulator that does not answer.
    if (HEADER_UNSAFE.test(options.adminKey)) {
      throw new ControlOptionsError(
        'The adminKey option is not a valid HTTP header value: it holds a line break, a NUL or a character ' +
          'beyond Latin-1. Check BOARDBOT_ADMIN_KEY for a stray newline (the key is not shown here).',
      );
    }
    this.#http = new ControlTransport(
      options.url,
      options.adminKey,
      options.fetch ?? globalThis.fetch.bind(globalThis),
    );
  }

  /** The emulator's origin, e.g. `http://127.0.0.1:8787`. */
  get origin(): string {
    return this.#http.origin;
  }

  /** The control API's base URL, `{origin}/_emulator/v1`. */
  get baseUrl(): string {
    return `${this.#http.origin}${CONTROL_PATH}`;
  }

  /**
   * URL of the activity stream (`GET /events`) with the admin key in its query: a browser's
   * `EventSource` cannot send headers. Keep it out of logs.
   */
  eventsUrl(): string {
    return this.#http.keyedUrl('/events');
  }

  /** `GET /info`: the version, the URLs and the configured limits. */
  info(): Promise<EmulatorInfo> {
    return this.#http.call('GET', '/info');
  }

  /** `GET /state`: every person, board and app. */
  state(): Promise<PlatformState> {
    return this.#http.call('GET', '/state');
  }

  /** `POST /reset`: deletes everything (an empty platform) and ends the open gateway streams. */
  async reset(): Promise<void> {
    await this.#http.call('POST', '/reset');
  }

  /** `POST /seed`: loads the default seed (idempotent) and returns what it holds. */
  seed(): Promise<PlatformState> {
    return this.#http.call('POST', '/seed');
  }

  /** `GET /users`: every person and bot user. */
  async users(): Promise<UserProfile[]> {
    return (await this.#http.call<UserList>('GET', '/users')).users;
  }

  /** `POST /users`: a new person (`username` is unique). */
  createUser(body: CreateUserBody): Promise<UserProfile> {
    return this.#http.call('POST', '/users', { body });
  }

  /** `GET /boards`: every board. */
  async boards(): Promise<Board[]> {
    return (await this.#http.call<BoardList>('GET', '/boards')).boards;
  }

  /** `POST /boards`: a new board, with no members yet. */
  createBoard(body: CreateBoardBody): Promise<Board> {
    return this.#http.call('POST', '/boards', { body });
  }

  /** `GET /boards/{boardId}/members`. */
  async members(boardId: string): Promise<Member[]> {
    return (await this.#http.call<MemberList>('GET', `/boards/${seg(boardId)}/members`)).members;
  }

  /**
   * `PUT /boards/{boardId}/members/{userId}`: adds a person to a board, or changes their role (a
   * change keeps `joined_at`).
   * @param role - the role @defaultValue `'member'`
   */
  setMember(boardId: string, userId: string, role?: PersonRole): Promise<Member> {
    const body = role === undefined ? {} : { role };
    return this.#http.call('PUT', `/boards/${seg(boardId)}/members/${seg(userId)}`, { body });
  }

  /** `DELETE /boards/{boardId}/members/{userId}` (also when they were not a member). */
  async removeMember(boardId: string, userId: string): Promise<void> {
    await this.#http.call('DELETE', `/boards/${seg(boardId)}/members/${seg(userId)}`);
  }

  /** `GET /apps`: every app, with its boards and commands. */
  async apps(): Promise<AppInfo[]> {
    return (await this.#http.call<AppList>('GET', '/apps')).apps;
  }

  /** `POST /apps`: a new app and its bot user; the token is shown this once. */
  createApp(body: CreateAppBody): Promise<CreatedApp> {
    return this.#http.call('POST', '/apps', { body });
  }

  /**
   * `POST /apps/{appId}/token`: gives the app a new token, generated unless `body.token` chooses one
   * (judged like one given at creation), shown this once; the old token is refused from then on and
   * the app's open gateway streams end. The app's current token given again keeps it and only has
   * its strength judged (an app stored before strengths were recorded counts as weak beyond loopback).
   * @param body - the chosen token, if any @defaultValue `{}` (a generated token)
   */
  rotateToken(appId: string, body: RotateTokenBody = {}): Promise<CreatedApp> {
    return this.#http.call('POST', `/apps/${seg(appId)}/token`, { body });
  }

  /** `PUT /apps/{appId}/installs/{boardId}`: the app's bot user joins the board with role `app`. */
  install(appId: string, boardId: string): Promise<AppInfo> {
    return this.#http.call('PUT', `/apps/${seg(appId)}/installs/${seg(boardId)}`);
  }

  /** `DELETE /apps/{appId}/installs/{boardId}`. */
  uninstall(appId: string, boardId: string): Promise<AppInfo> {
    return this.#http.call('DELETE', `/apps/${seg(appId)}/installs/${seg(boardId)}`);
  }

  /** `GET /boards/{boardId}/messages`: highest `seq` first, tombstones included. */
  async messages(boardId: string, page: MessagePage = {}): Promise<Message[]> {
    const query = { before: page.before, limit: page.limit };
    return (await this.#http.call<MessageList>('GET', `/boards/${seg(boardId)}/messages`, { query })).messages;
  }

  /**
   * `POST /boards/{boardId}/messages` as a person (`user_id`, a member of the board) or a webhook
   * (`webhook_name`); it raises the same gateway events as an app's message.
   */
  postMessage(boardId: string, body: PersonMessageBody): Promise<Message> {
    return this.#http.call('POST', `/boards/${seg(boardId)}/messages`, { body });
  }

  /** `PATCH /boards/{boardId}/messages/{messageId}`: edits any author's message. */
  editMessage(boardId: string, messageId: string, content: string): Promise<Message> {
    return this.#http.call('PATCH', `/boards/${seg(boardId)}/messages/${seg(messageId)}`, { body: { content } });
  }

  /**
   * `GET /boards/{boardId}/messages/{messageId}/why`: what produced an app's message, as the emulator
   * saw it: the handler and event the bot named, and its REST calls with statuses and durations.
   */
  why(boardId: string, messageId: string): Promise<MessageWhy> {
    return this.#http.call('GET', `/boards/${seg(boardId)}/messages/${seg(messageId)}/why`);
  }

  /** `DELETE /boards/{boardId}/messages/{messageId}` (idempotent). */
  async deleteMessage(boardId: string, messageId: string): Promise<void> {
    await this.#http.call('DELETE', `/boards/${seg(boardId)}/messages/${seg(messageId)}`);
  }

  /**
   * `POST /interactions`: a person invokes a slash command. The emulator checks it against the
   * registered options first, as the platform does; a refusal is a `400 validation_failed` whose
   * `details` name each problem (`/options/sides`).
   * @returns the interaction the app was sent, without its token
   */
  async invoke(body: InvokeBody): Promise<ShownInteraction> {
    return (await this.#http.call<InvokedInteraction>('POST', '/interactions', { body })).interaction;
  }

  /**
   * `POST /interactions?answers=…&timeout_ms=…`: invokes like {@link ControlClient.invoke}, and waits
   * in the same request like {@link ControlClient.wait}: one round trip instead of two.
   * @returns the interaction with its status and answers (check `status` when it timed out)
   */
  async invokeAndWait(body: InvokeBody, options: AnswerWaitOptions = {}): Promise<InteractionView> {
    const query = {
      answers: options.answers ?? CONTROL_QUERY_DEFAULTS.waitAnswers,
      timeout_ms: options.timeoutMs ?? CONTROL_QUERY_DEFAULTS.waitTimeoutMs,
      final: options.final === true ? 'true' : undefined,
    };
    return this.#http.call<InteractionView>('POST', '/interactions', { body, query });
  }

  /** `GET /interactions`: newest first, each with its answers. */
  async interactions(query: InteractionQuery = {}): Promise<InteractionView[]> {
    const q = { board_id: query.boardId, limit: query.limit };
    return (await this.#http.call<InteractionList>('GET', '/interactions', { query: q })).interactions;
  }

  /** `GET /interactions/{id}`: an interaction with its status and answers. */
  interaction(id: string): Promise<InteractionView> {
    return this.#http.call('GET', `/interactions/${seg(id)}`);
  }

  /**
   * `GET /interactions/{id}/wait`: resolves once the interaction has `answers` answers (with `final`,
   * each with its final text), or when `timeoutMs` passed (then with what it has: check `status`).
   * The emulator does the waiting.
   */
  wait(id: string, options: AnswerWaitOptions = {}): Promise<InteractionView> {
    const query = {
      answers: options.answers,
      timeout_ms: options.timeoutMs,
      final: options.final === true ? 'true' : undefined,
    };
    return this.#http.call('GET', `/interactions/${seg(id)}/wait`, { query });
  }
}

/** A path segment: ids are UUIDs, but a stray `/` or `?` must not reach another route. */
function seg(value: string): string {
  return encodeURIComponent(value);
}
