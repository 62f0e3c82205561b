import { readErrorEnvelope } from '@boardbot/protocol/http';
import { type ApiErrorInit, type ErrorContext, InvalidResponseError } from '../errors.js';
import { redact } from './redact.js';
import type { ReadAnswer } from './send-call.js';

/** Most bytes of an error body that are read; the rest is dropped (an HTML error page can be huge). */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** Longest excerpt of a body quoted in an error. */
export const MAX_EXCERPT_CHARS = 200;

/**
 * A short, single-line excerpt of a body for an error message: HTML tags dropped, whitespace
 * collapsed, cut at {@link MAX_EXCERPT_CHARS}.
 * @param text - the body
 */
export function excerpt(text: string): string {
  const flat = text
    .slice(0, MAX_EXCERPT_CHARS * 8)
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > MAX_EXCERPT_CHARS ? `${flat.slice(0, MAX_EXCERPT_CHARS)}…` : flat;
}

/** The bounds of what an error keeps of the server's words. */
const MAX_API_CODE_CHARS = 100;
const MAX_SERVER_MESSAGE_CHARS = 1000;

/**
 * Reads an error answer. Any `{ error: { code } }` body is an API error whatever the code
 * (CONTRACT "Tolerance"); anything else (an HTML 502 from a proxy) becomes `http_<status>` with a
 * bounded excerpt. Every string the server sent has the call's credentials replaced before it is cut
 * to its bound, so no part of a token can survive (the body is parsed first: JSON may escape them).
 * @param status - the HTTP status
 * @param text - the (bounded) body
 * @param secrets - the call's credentials
 */
export function parseErrorBody(status: number, text: string, secrets: readonly string[]): ApiErrorInit {
  const envelope = readErrorEnvelope(text);
  if (!envelope) return { status, apiCode: `http_${status}`, serverMessage: excerpt(redact(text, secrets)) };
  const clean = (value: string, bound: number) => redact(value, secrets).slice(0, bound);
  return {
    status,
    apiCode: clean(envelope.code, MAX_API_CODE_CHARS),
    serverMessage: envelope.message === undefined ? '' : clean(envelope.message, MAX_SERVER_MESSAGE_CHARS),
    details: envelope.details?.map((d) => ({
      path: clean(d.path, MAX_SERVER_MESSAGE_CHARS),
      message: clean(d.message, MAX_SERVER_MESSAGE_CHARS),
    })),
    retryAfter: envelope.retry_after,
  };
}

/**
 * The parsed JSON of a 2xx answer's body, or an {@link InvalidResponseError} when it is not JSON (a
 * truncated answer, a proxy's page).
 * @param answer - the answer, read whole
 * @param ctx - the call
 * @param secrets - the call's credentials (asked for only on failure), kept out of the excerpt
 */
export function parseSuccessBody(answer: ReadAnswer, ctx: ErrorContext, secrets: () => readonly string[]): unknown {
  try {
    return JSON.parse(answer.text);
  } catch {
    // Not the parse error as the cause: V8 quotes a piece of the body in it, maybe half a token.
    throw new InvalidResponseError(
      {
        status: answer.statusCode,
        problem: 'not JSON (truncated or not an API answer)',
        excerpt: excerpt(redact(answer.text, secrets())),
      },
      ctx,
    );
  }
}
