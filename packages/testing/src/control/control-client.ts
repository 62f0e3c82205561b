import type { InteractionView } from '@boardbot/emulator';
import type {
  App,
  Board,
  Command,
  ErrorDetail,
  Interaction,
  Member,
  Message,
  OptionValue,
  UserProfile,
} from '@boardbot/protocol';
import { Agent, type Dispatcher, request } from 'undici';
import { ControlApiError, type ControlCall, InvocationRejectedError, PlatformClosedError } from '../errors.js';

/** An app as the control API shows it: the app, its boards and its registered commands. */
export interface ControlApp extends App {
  board_ids: string[];
  commands: Command[];
}

/** What `GET /state` answers. */
export interface ControlState {
  users: UserProfile[];
  boards: Board[];
  apps: ControlApp[];
}

/** An invocation as the control API shows it: the interaction without its token. */
export type ShownInteraction = Omit<Interaction, 'token'>;

/** A person's slash command as `POST /interactions` takes it. */
export interface InvocationBody {
  board_id: string;
  user_id: string;
  command: string;
  subcommand?: string;
  options?: Record<string, OptionValue>;
}

/** Options of {@link ControlClient}. */
export interface ControlClientOptions {
  /** The control API base, e.g. `http://127.0.0.1:PORT/_emulator/v1`. */
  baseUrl: string;
  /** The emulator's admin key; sent as a bearer token, never logged nor put in an error. */
  adminKey: string;
  /** The undici dispatcher to send with. @defaultValue an own `Agent`, closed by `close()` */
  dispatcher?: Dispatcher;
}

/**
 * The people's side of the platform: typed calls of the emulator's control API over real HTTP
 * (undici). Every refusal becomes a {@link ControlApiError} carrying the call, the status, the
 * contract's error code and the `validation_failed` details.
 */
export class ControlClient {
  private readonly baseUrl: string;
  private readonly adminKey: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownDispatcher: boolean;
  private closed = false;

  /** @param options - where the control API is, and the admin key */
  constructor(options: ControlClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.adminKey = options.adminKey;
    this.ownDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new Agent({ connections: 8 });
  }

  /**
   * Sends one control API call and parses its JSON answer (`undefined` for 204).
   *
   * @param method - HTTP method
   * @param path - path under the control prefix, e.g. `/state`
   * @param body - JSON body, if any
   * @throws ControlApiError when the answer is not 2xx
   */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    if (this.closed) throw new PlatformClosedError(`${method} ${path}`);
    const headers: Record<string, string> = { authorization: `Bearer ${this.adminKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await request(`${this.baseUrl}${path}`, {
      method: method as Dispatcher.HttpMethod,
      headers,
      dispatcher: this.dispatcher,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    if (res.statusCode >= 200 && res.statusCode < 300) return (text === '' ? undefined : JSON.parse(text)) as T;
    const { apiCode, message, details } = readError(text);
    const call: ControlCall = { method, path, status: res.statusCode, apiCode, details };
    if (method === 'POST' && path === '/interactions' && res.statusCode === 400) {
      throw new InvocationRejectedError(call, message);
    }
    throw new ControlApiError(call, message);
  }

  /** Users, boards and apps. */
  state(): Promise<ControlState> {
    return this.call('GET', '/state');
  }

  /** Creates a person. */
  createUser(body: { username: string; display_name?: string }): Promise<UserProfile> {
    return this.call('POST', '/users', body);
  }

  /** Creates a board (no one is a member yet). */
  createBoard(body: { name: string; description?: string }): Promise<Board> {
    return this.call('POST', '/boards', body);
  }

  /** Installs an app on a board (its bot user joins with role `app`). */
  install(appId: string, boardId: string): Promise<ControlApp> {
    return this.call('PUT', `/apps/${appId}/installs/${boardId}`);
  }

  /** A board's members. */
  async members(boardId: string): Promise<Member[]> {
    return (await this.call<{ members: Member[] }>('GET', `/boards/${boardId}/members`)).members;
  }

  /** Adds a person to a board, or changes their role. */
  setMember(boardId: string, userId: string, role: 'owner' | 'admin' | 'member'): Promise<Member> {
    return this.call('PUT', `/boards/${boardId}/members/${userId}`, { role });
  }

  /** Posts a message as a person. */
  postMessage(
    boardId: string,
    body: { user_id: string; content?: string; embeds?: unknown[]; replyTo?: string },
  ): Promise<Message> {
    return this.call('POST', `/boards/${boardId}/messages`, body);
  }

  /** Edits any message (the harness only offers it on a person's own). */
  editMessage(boardId: string, messageId: string, content: string): Promise<Message> {
    return this.call('PATCH', `/boards/${boardId}/messages/${messageId}`, { content });
  }

  /** Deletes a message (idempotent). */
  async deleteMessage(boardId: string, messageId: string): Promise<void> {
    await this.call('DELETE', `/boards/${boardId}/messages/${messageId}`);
  }

  /** A board's messages, highest `seq` first, tombstones included. */
  async messages(boardId: string, query: { limit?: number; before?: number } = {}): Promise<Message[]> {
    const params = new URLSearchParams();
    if (query.limit !== undefined) params.set('limit', String(query.limit));
    if (query.before !== undefined) params.set('before', String(query.before));
    const qs = params.size > 0 ? `?${params}` : '';
    return (await this.call<{ messages: Message[] }>('GET', `/boards/${boardId}/messages${qs}`)).messages;
  }

  /**
   * Invokes a slash command as a person; the platform checks it against the registered options first.
   * @throws InvocationRejectedError when the platform refuses the invocation
   */
  async invoke(body: InvocationBody): Promise<ShownInteraction> {
    return (await this.call<{ interaction: ShownInteraction }>('POST', '/interactions', body)).interaction;
  }

  /** An interaction with its answers and status. */
  interaction(id: string): Promise<InteractionView> {
    return this.call('GET', `/interactions/${id}`);
  }

  /** Closes the client's own connections; later calls throw {@link PlatformClosedError}. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownDispatcher) await this.dispatcher.close();
  }
}

function readError(text: string): { apiCode: string | undefined; message: string; details: ErrorDetail[] } {
  try {
    const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; details?: unknown } };
    const e = parsed.error;
    return {
      apiCode: typeof e?.code === 'string' ? e.code : undefined,
      message: typeof e?.message === 'string' ? e.message : text,
      details: Array.isArray(e?.details) ? (e.details as ErrorDetail[]) : [],
    };
  } catch {
    return { apiCode: undefined, message: text.slice(0, 200), details: [] };
  }
}
