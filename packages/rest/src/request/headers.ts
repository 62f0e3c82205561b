import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY_PATTERN } from '@boardbot/protocol/runtime';
import { type ErrorContext, InvalidArgumentError } from '../errors.js';
import type { RequestOptions } from '../options.js';
import type { Call } from './call.js';

const KEY_PATTERN = new RegExp(IDEMPOTENCY_KEY_PATTERN);
// Visible ASCII only: a header value must not be able to carry a line break into the request.
const REQUEST_ID_PATTERN = /^[\x21-\x7E]{1,255}$/;

type Headers = Record<string, string>;

function visibleAscii(value: string, pattern: RegExp, name: string, ctx: ErrorContext): string {
  if (!pattern.test(value)) {
    throw new InvalidArgumentError(
      `Invalid ${name}`,
      [{ path: `/${name}`, message: 'Expected 1..255 visible ASCII characters' }],
      ctx,
    );
  }
  return value;
}

/**
 * The request headers of a client, built once: each call copies its set once, into the object it
 * sends, and adds its own `Idempotency-Key`, `X-Request-Id` and trace headers to that copy.
 */
export class HeaderSets {
  private readonly app: Headers;
  private readonly appJson: Headers;
  private readonly interaction: Headers;

  /**
   * @param userAgent - the `User-Agent`
   * @param token - the app token, if any
   */
  constructor(userAgent: string, token: string | undefined) {
    const base: Headers = { 'user-agent': userAgent, accept: 'application/json' };
    this.app = token ? { ...base, authorization: `Bearer ${token}` } : base;
    this.appJson = { ...this.app, 'content-type': 'application/json' };
    // CONTRACT: endpoint 12 carries no Authorization header; the token in the path is the credential.
    this.interaction = { ...base, 'content-type': 'application/json' };
  }

  /**
   * The headers of one call, in a fresh object the caller may add to. Every POST and PATCH gets an
   * `Idempotency-Key` (the caller's, or a fresh UUID), built here once so that every retry of the
   * call sends the same one.
   * @param call - the call
   * @param o - its options
   * @param ctx - for errors
   */
  for(call: Call, o: RequestOptions | undefined, ctx: ErrorContext): Headers {
    const headers = { ...(call.interactionToken ? this.interaction : call.body ? this.appJson : this.app) };
    // CONTRACT: POST 5 and 12 and PATCH 6 honour Idempotency-Key.
    if (call.method === 'POST' || call.method === 'PATCH') {
      headers['idempotency-key'] =
        o?.idempotencyKey === undefined
          ? randomUUID()
          : visibleAscii(o.idempotencyKey, KEY_PATTERN, 'idempotencyKey', ctx);
    }
    if (o?.requestId !== undefined) {
      headers['x-request-id'] = visibleAscii(o.requestId, REQUEST_ID_PATTERN, 'requestId', ctx);
    }
    return headers;
  }
}
