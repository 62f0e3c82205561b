/**
 * Error codes of the contract with their HTTP status (CONTRACT.md "Errors").
 * Clients must still accept codes that are not listed here (CONTRACT.md "Tolerance").
 */
export const ERROR_STATUS = {
  invalid_json: 400,
  validation_failed: 400,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  unknown_board: 404,
  unknown_message: 404,
  unknown_user: 404,
  unknown_interaction: 404,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  idempotency_in_progress: 409,
  interaction_expired: 410,
  interaction_exhausted: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  headers_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const satisfies Record<string, number>;

/** A known error code of the contract. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** Every known error code, in the order of the contract's table. */
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** What each code means, for docs and for the OpenAPI document. */
export const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  invalid_json: 'The body is not parsable JSON.',
  validation_failed: 'A parameter or body field is invalid; `details` lists each problem.',
  bad_request:
    'The HTTP request is malformed (request line, headers, chunked encoding, no `Host`), or its `Host` is not one the server answers to.',
  unauthorized: 'The bearer token is missing or unknown.',
  forbidden: 'The credential may not do this (for example, editing a message another user wrote).',
  unknown_board: 'No such board, or the app is not installed on it.',
  unknown_message: 'No such message on the board, or it was deleted.',
  unknown_user: 'No such user visible to the app.',
  unknown_interaction: 'No such interaction token.',
  not_found: 'No route matches the path.',
  method_not_allowed: 'The path exists but not with this method.',
  request_timeout: 'The request head or body arrived too slowly.',
  idempotency_in_progress: 'A request with the same Idempotency-Key is still being processed.',
  interaction_expired: 'The interaction token expired (15 minutes after the invocation).',
  interaction_exhausted: 'The interaction token already has its 5 answers (the reply and 4 follow-ups).',
  payload_too_large: 'The body is over 1 MiB.',
  unsupported_media_type: 'The body is not `application/json`.',
  idempotency_key_reused: 'The Idempotency-Key was used before with a different body.',
  headers_too_large: "The request line and headers together are over the server's limit (16 KiB).",
  rate_limited: 'Too many requests; wait `retry_after` seconds.',
  internal_error: 'The server failed; never caused by bad input.',
  unavailable: 'The server is shutting down or not ready.',
};

/** Whether `code` is one of the contract's known error codes. */
export function isKnownErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_STATUS, code);
}
