// Plain values, apart from the schemas: the client (bundled for browsers) reads them without
// loading TypeBox.

/** Defaults of the control API's optional query parameters (the routes apply them; the document shows them). */
export const CONTROL_QUERY_DEFAULTS = {
  /** `limit` of `GET /interactions`. */
  interactionLimit: 50,
  /** `answers` of `GET /interactions/{id}/wait`. */
  waitAnswers: 1,
  /** `timeout_ms` of `GET /interactions/{id}/wait`. */
  waitTimeoutMs: 5000,
} as const;
