import type { CONTROL_PREFIX } from '@boardbot/protocol';
import { readErrorEnvelope } from '@boardbot/protocol/http';
import { ControlApiError, type ControlRequest, ControlUnreachableError } from './errors.js';

// The HTTP of the control API client. It runs in Node and in browsers (the playground bundles it):
// `fetch` only, and nothing at run time but the browser-safe `@boardbot/protocol/http`.

/** Path of the control API on an emulator; the assignment fails to compile if the protocol's differs. */
export const CONTROL_PATH: typeof CONTROL_PREFIX = '/_emulator/v1';

/** What one call sends besides its method and path. */
export interface ControlSend {
  /** A JSON body. */
  body?: unknown;
  /** Query parameters; `undefined` ones are left out. */
  query?: Record<string, string | number | undefined>;
}

/** Sends control API calls with the admin key and turns error answers into {@link ControlApiError}. */
export class ControlTransport {
  /** The emulator's origin, e.g. `http://127.0.0.1:8787`. */
  readonly origin: string;
  readonly #key: string;
  readonly #fetch: typeof fetch;

  /**
   * @param url - the emulator's origin, or its control API base (`{origin}/_emulator/v1`)
   * @param adminKey - the admin key
   * @param fetchImpl - the `fetch` to send with
   */
  constructor(url: string, adminKey: string, fetchImpl: typeof fetch) {
    const trimmed = url.replace(/\/+$/, '');
    this.origin = trimmed.endsWith(CONTROL_PATH) ? trimmed.slice(0, -CONTROL_PATH.length) : trimmed;
    this.#key = adminKey;
    this.#fetch = fetchImpl;
  }

  /** URL of `path` under the control API with the admin key in the query, for `EventSource`. */
  keyedUrl(path: string): string {
    return `${this.origin}${CONTROL_PATH}${path}?key=${encodeURIComponent(this.#key)}`;
  }

  /**
   * Sends one call and parses its JSON answer (`undefined` for an empty one).
   *
   * @param method - HTTP method
   * @param path - path under `/_emulator/v1`, e.g. `/state`
   * @param send - body and query
   * @throws ControlApiError when the answer is not 2xx, or not JSON
   * @throws ControlUnreachableError when nothing answers
   */
  async call<T>(method: string, path: string, send: ControlSend = {}): Promise<T> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(send.query ?? {})) {
      if (value !== undefined) search.set(name, String(value));
    }
    const request: ControlRequest = { method, path: search.size > 0 ? `${path}?${search}` : path };
    const headers: Record<string, string> = { authorization: `Bearer ${this.#key}`, accept: 'application/json' };
    const init: RequestInit = { method, headers, cache: 'no-store' };
    if (send.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(send.body);
    }
    let response: Response;
    try {
      response = await this.#fetch(`${this.origin}${CONTROL_PATH}${request.path}`, init);
    } catch (cause) {
      // fetch rejects with a TypeError when nothing answers; an abort, or an injected fetch's own
      // error, is the caller's to see as it is.
      if (cause instanceof TypeError) throw new ControlUnreachableError(request, this.origin, cause);
      throw cause;
    }
    const text = await response.text();
    if (!response.ok) throw this.#refused(request, response.status, text);
    if (text === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      const serverMessage = 'The answer is not JSON: is this URL an emulator?';
      throw new ControlApiError(request, {
        status: response.status,
        apiCode: `http_${response.status}`,
        serverMessage,
        details: [],
      });
    }
  }

  /**
   * The error of an error answer. CONTRACT: every error answer is `{ error: { code, message, details? } }`;
   * anything else (a proxy's page) is still a refusal, with `http_<status>` as its code.
   */
  #refused(request: ControlRequest, status: number, text: string): ControlApiError {
    const envelope = readErrorEnvelope(text);
    // The emulator never echoes the key, but whatever stands in front of it might.
    const key = this.#key;
    const hide = (s: string) => (key === '' ? s : s.split(key).join('<admin key>'));
    return new ControlApiError(request, {
      status,
      apiCode: envelope?.code ?? `http_${status}`,
      serverMessage: hide(envelope?.message ?? `The emulator answered ${status}.`),
      details: (envelope?.details ?? []).map((d) => ({ path: hide(d.path), message: hide(d.message) })),
    });
  }
}
