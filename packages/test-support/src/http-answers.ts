import type { ServerResponse } from 'node:http';

// Answers in the contract's shapes, for scripted servers and proxies.

/**
 * Sends a JSON answer.
 * @param res - the response
 * @param status - HTTP status
 * @param body - serialised as JSON
 * @param headers - extra headers
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/**
 * The contract's error envelope, `{ error: { code, message } }`.
 * @param code - the platform's error code
 * @param message - its message
 * @param extra - more fields of `error` (`details`, `retry_after`...)
 */
export function envelope(code: string, message = code, extra: Record<string, unknown> = {}): unknown {
  return { error: { code, message, ...extra } };
}

/**
 * Sends an error envelope whose message is its code.
 * @param res - the response
 * @param status - HTTP status
 * @param code - the platform's error code
 * @param headers - extra headers (`Retry-After`, `WWW-Authenticate`...)
 */
export function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, envelope(code), headers);
}

/**
 * Rate-limit headers as the contract sends them (the reset in delta seconds, 3 decimals).
 * @param limit - requests per window
 * @param remaining - requests left in this window
 * @param resetSeconds - seconds until the window resets
 */
export function rateLimitHeaders(limit: number, remaining: number, resetSeconds: number): Record<string, string> {
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': resetSeconds.toFixed(3),
  };
}
