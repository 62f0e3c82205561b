import { readErrorEnvelope, readRetryAfter } from '@boardbot/protocol/http';
import {
  type GatewayError,
  GatewayForbiddenError,
  GatewayHttpError,
  GatewayRateLimitedError,
  type GatewayRequestContext,
  GatewayServerError,
  GatewayUnauthorizedError,
} from '../errors.js';
import type { GatewayFetchResponse } from './fetch-types.js';

// An error body is a small JSON envelope; anything longer is not read further.
const MAX_ERROR_BODY = 16 * 1024;

async function readErrorText(response: GatewayFetchResponse): Promise<string> {
  const body = response.body;
  if (!body) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  try {
    while (size < MAX_ERROR_BODY) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      size += value.length;
    }
  } catch {
    return '';
  } finally {
    // Releases the socket whether or not the whole body was read.
    await reader.cancel().catch(() => {});
  }
  return text + decoder.decode();
}

/**
 * Classifies a non-200 answer of `GET /gateway`: 401 and 403 are fatal (retrying the same token
 * cannot help), 429, 408 and 5xx are retried with back-off and their `Retry-After`, anything else is
 * fatal because it means the URL or the client is wrong.
 *
 * @param response - The answer; its body is read (bounded) for the envelope's `error.code`, then released.
 * @param url - The gateway URL.
 */
export async function httpFailure(response: GatewayFetchResponse, url: string): Promise<GatewayError> {
  const status = response.status;
  const apiCode = readErrorEnvelope(await readErrorText(response))?.code;
  const request: GatewayRequestContext = { method: 'GET', url, status };
  if (apiCode !== undefined) request.apiCode = apiCode;
  const headers = response.headers;
  // An HTTP-date or epoch `Retry-After` is read against the wall clock (and the answer's `Date`, if any).
  const retryAfter = readRetryAfter(headers.get('retry-after'), Date.now(), headers.get('date'));
  // A time already past asks for no wait at all.
  const retryAfterMs = retryAfter === undefined ? undefined : Math.max(0, retryAfter);
  if (status === 401) return new GatewayUnauthorizedError(request);
  if (status === 403) return new GatewayForbiddenError(request);
  if (status === 429) return new GatewayRateLimitedError(request, retryAfterMs);
  if (status === 408 || status >= 500) return new GatewayServerError(request, retryAfterMs);
  return new GatewayHttpError(request);
}
