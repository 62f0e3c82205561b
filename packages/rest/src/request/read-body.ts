import type { ErrorDetail } from '@boardbot/protocol';
import type { Dispatcher } from 'undici';
import { type ApiErrorInit, type ErrorContext, InvalidResponseError } from '../errors.js';

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

/**
 * Reads at most `maxBytes` of a body as UTF-8 and drops the rest, so a hostile or broken server
 * cannot make the client buffer an endless error page.
 * @param body - the answer's body
 * @param maxBytes - the bound
 */
export async function readBounded(
  body: Dispatcher.ResponseData['body'],
  maxBytes = MAX_ERROR_BODY_BYTES,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    const room = maxBytes - size;
    chunks.push(buf.length > room ? buf.subarray(0, room) : buf);
    size += Math.min(buf.length, room);
    if (size >= maxBytes) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

function isDetail(d: unknown): d is ErrorDetail {
  return typeof d === 'object' && d !== null && typeof (d as ErrorDetail).path === 'string';
}

/**
 * Reads an error answer. Any `{ error: { code } }` body is an API error whatever the code
 * (CONTRACT "Tolerance"); anything else (an HTML 502 from a proxy) becomes `http_<status>` with a
 * bounded excerpt.
 * @param status - the HTTP status
 * @param text - the (bounded) body
 */
export function parseErrorBody(status: number, text: string): ApiErrorInit {
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const error = (parsed as { error?: unknown } | undefined)?.error as Record<string, unknown> | undefined;
  if (typeof error === 'object' && error !== null && typeof error.code === 'string' && error.code) {
    const details = Array.isArray(error.details)
      ? error.details.filter(isDetail).map((d) => ({ path: d.path, message: String(d.message ?? '') }))
      : undefined;
    const retryAfter =
      typeof error.retry_after === 'number' && Number.isFinite(error.retry_after) ? error.retry_after : undefined;
    return {
      status,
      apiCode: error.code.slice(0, 100),
      serverMessage: typeof error.message === 'string' ? error.message.slice(0, 1000) : '',
      details,
      retryAfter,
    };
  }
  return { status, apiCode: `http_${status}`, serverMessage: excerpt(text) };
}

/**
 * Replaces every secret (the app token, an interaction token) in server-provided text, in case a
 * server echoes one back; tokens must never reach an error message.
 * @param text - text from the server
 * @param secrets - the credentials of the call
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) if (s) out = out.split(s).join('[redacted]');
  return out;
}

/**
 * The parsed JSON of a 2xx answer (`undefined` for 204 or an `empty` call), or an
 * {@link InvalidResponseError} when the body is not JSON (a truncated answer, a proxy's page).
 * @param res - the answer
 * @param empty - the call expects no body
 * @param ctx - the call
 * @param secrets - credentials to keep out of the excerpt
 */
export async function readSuccessBody(
  res: Dispatcher.ResponseData,
  empty: boolean,
  ctx: ErrorContext,
  secrets: readonly (string | undefined)[],
): Promise<unknown> {
  if (empty || res.statusCode === 204) {
    await res.body.dump();
    return undefined;
  }
  const text = await res.body.text();
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InvalidResponseError(
      {
        status: res.statusCode,
        problem: 'not JSON (truncated or not an API answer)',
        excerpt: redact(excerpt(text), secrets),
      },
      ctx,
      err,
    );
  }
}
