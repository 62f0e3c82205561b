import type { ErrorDetail } from '../schemas/error-envelope.js';

/** What an error answer's envelope `{ error: { code, message, details?, retry_after? } }` said. */
export interface ErrorEnvelopeFields {
  /** `error.code`, as sent: a code this version does not know is kept. */
  code: string;
  /** `error.message`, when it is a string. */
  message: string | undefined;
  /** `error.details` entries that name a `path` (a `validation_failed` answer's problems). */
  details: ErrorDetail[] | undefined;
  /** `error.retry_after` in seconds (a 429's precise wait), when it is a finite number. */
  retry_after: number | undefined;
}

/**
 * Reads the error envelope of an answer's body, tolerantly (CONTRACT "Tolerance"): any
 * `{ error: { code } }` with a non-empty string code is an API error, whatever the code and whatever
 * else the body holds; every other field is kept only when it has the contract's type. Bounding the
 * body and scrubbing secrets from what it says stay with the caller.
 *
 * @param text - The body, as text.
 * @returns The envelope's fields, or `undefined` when the body is not such an envelope (a proxy's HTML page).
 *
 * @example
 * const envelope = readErrorEnvelope(await response.text());
 * const code = envelope?.code ?? `http_${response.status}`;
 */
export function readErrorEnvelope(text: string): ErrorEnvelopeFields | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const error = isObject(parsed) ? parsed.error : undefined;
  if (!isObject(error) || typeof error.code !== 'string' || error.code === '') return undefined;
  const { code, message, details, retry_after } = error;
  return {
    code,
    message: typeof message === 'string' ? message : undefined,
    details: Array.isArray(details) ? details.filter(isDetail).map(toDetail) : undefined,
    retry_after: typeof retry_after === 'number' && Number.isFinite(retry_after) ? retry_after : undefined,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isDetail(value: unknown): value is { path: string; message?: unknown } {
  return isObject(value) && typeof value.path === 'string';
}

// A detail whose message is missing or not a string still points at the field; its message becomes text.
function toDetail(detail: { path: string; message?: unknown }): ErrorDetail {
  return { path: detail.path, message: String(detail.message ?? '') };
}
