import { ControlApiError, EmulatorUnreachableError } from '../errors.js';
import type {
  Board,
  EmulatorInfo,
  ErrorDetail,
  InteractionRecord,
  InteractionView,
  InvokeBody,
  Member,
  Message,
  PersonMessageBody,
  PlatformState,
  UserProfile,
} from './types.js';

/** Path prefix of the control API (docs/control-api.md). */
export const CONTROL_PATH = '/_emulator/v1';

/** How to reach the control API. */
export interface ControlClientOptions {
  /** Origin of the emulator, e.g. `http://127.0.0.1:8787`. */
  origin: string;
  /** The admin key the emulator printed at start. */
  key: string;
  /**
   * The `fetch` to use; tests and other hosts inject theirs.
   * @defaultValue `globalThis.fetch`
   */
  fetch?: typeof fetch;
}

type Query = Record<string, string | number | undefined>;

/**
 * A small typed client of the emulator's control API: the only way the playground talks to the
 * platform. Every call sends the admin key as a bearer token and throws {@link ControlApiError} on
 * an error envelope, {@link EmulatorUnreachableError} when nothing answers.
 */
export class ControlClient {
  readonly #origin: string;
  readonly #key: string;
  readonly #fetch: typeof fetch;

  /** @param options - where the emulator is and the admin key. */
  constructor(options: ControlClientOptions) {
    this.#origin = options.origin.replace(/\/+$/, '');
    this.#key = options.key;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** URL of the activity stream; `EventSource` cannot send headers, so the key rides in the query. */
  eventsUrl(): string {
    return `${this.#origin}${CONTROL_PATH}/events?key=${encodeURIComponent(this.#key)}`;
  }

  /** `GET /info`: version, URLs and limits. */
  info(): Promise<EmulatorInfo> {
    return this.#call('GET', '/info');
  }

  /** `GET /state`: users, boards and apps. */
  state(): Promise<PlatformState> {
    return this.#call('GET', '/state');
  }

  /** `POST /users`: a new person. */
  createUser(body: { username: string; display_name?: string }): Promise<UserProfile> {
    return this.#call('POST', '/users', body);
  }

  /** `GET /boards/{boardId}/members`. */
  async members(boardId: string): Promise<Member[]> {
    return (await this.#call<{ members: Member[] }>('GET', `/boards/${boardId}/members`)).members;
  }

  /** `PUT /boards/{boardId}/members/{userId}`: `userId` joins the board. */
  join(boardId: string, userId: string): Promise<Member> {
    return this.#call('PUT', `/boards/${boardId}/members/${userId}`, {});
  }

  /** `GET /boards/{boardId}/messages`: newest first, tombstones included. */
  async messages(boardId: string, query: { before?: number; limit?: number } = {}): Promise<Message[]> {
    return (await this.#call<{ messages: Message[] }>('GET', `/boards/${boardId}/messages`, undefined, query)).messages;
  }

  /** `POST /boards/{boardId}/messages` as a person. */
  send(boardId: string, body: PersonMessageBody): Promise<Message> {
    return this.#call('POST', `/boards/${boardId}/messages`, body);
  }

  /** `PATCH /boards/{boardId}/messages/{messageId}`. */
  edit(boardId: string, messageId: string, content: string): Promise<Message> {
    return this.#call('PATCH', `/boards/${boardId}/messages/${messageId}`, { content });
  }

  /** `DELETE /boards/{boardId}/messages/{messageId}` (idempotent). */
  async remove(boardId: string, messageId: string): Promise<void> {
    await this.#call('DELETE', `/boards/${boardId}/messages/${messageId}`);
  }

  /** `POST /interactions`: a person invokes a slash command; checked against its registered options. */
  async invoke(body: InvokeBody): Promise<InteractionRecord> {
    return (await this.#call<{ interaction: InteractionRecord }>('POST', '/interactions', body)).interaction;
  }

  /** `GET /interactions?board_id&limit`: newest first, with their answers. */
  async interactions(boardId: string, limit = 50): Promise<InteractionView[]> {
    return (
      await this.#call<{ interactions: InteractionView[] }>('GET', '/interactions', undefined, {
        board_id: boardId,
        limit,
      })
    ).interactions;
  }

  /** `GET /boards`: every board. */
  async boards(): Promise<Board[]> {
    return (await this.#call<{ boards: Board[] }>('GET', '/boards')).boards;
  }

  async #call<T>(method: string, path: string, body?: unknown, query?: Query): Promise<T> {
    const request = `${method} ${CONTROL_PATH}${path}`;
    const url = new URL(`${this.#origin}${CONTROL_PATH}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { authorization: `Bearer ${this.#key}`, accept: 'application/json' };
    const init: RequestInit = { method, headers, cache: 'no-store' };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response: Response;
    try {
      response = await this.#fetch(url, init);
    } catch (cause) {
      throw new EmulatorUnreachableError(request, cause);
    }
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    const parsed = parseJson(text);
    if (!response.ok) throw toApiError(response.status, parsed, request);
    return parsed as T;
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// CONTRACT: every non-2xx answer is `{ error: { code, message, details? } }`; anything else still
// becomes an error, with the status as its only clue.
function toApiError(status: number, body: unknown, request: string): ControlApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  const code = typeof error?.code === 'string' ? error.code : 'unknown';
  const message = typeof error?.message === 'string' ? error.message : `The emulator answered ${status}.`;
  const details = Array.isArray(error?.details) ? (error.details as ErrorDetail[]) : [];
  return new ControlApiError(status, code, message, details, request);
}
