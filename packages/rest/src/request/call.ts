/** HTTP methods of the app API. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** What the caller expects back from a successful answer. */
export type Expect = 'json' | 'empty';

/** One call of the app API, ready to send (and to resend on retry). */
export interface Call {
  method: HttpMethod;
  /** Path relative to the base URL, parameters encoded, query included. */
  path: string;
  /** The path as it appears in errors, logs and events: `/interactions/:token` for endpoint 12. */
  logPath: string;
  /** The endpoint's route template (`/boards/{boardId}/messages`): bounded, for metrics and span names. */
  route: string;
  /** The JSON body, serialised once so every retry sends the same bytes. */
  body?: string;
  /** Set for endpoint 12: the credential (no Authorization header, its own rate-limit bucket). */
  interactionToken?: string;
  expect: Expect;
}
