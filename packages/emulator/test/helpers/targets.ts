import type { RouteEntry } from '../../src/http/route-table.js';
import { type RawAnswer, rawExchange } from './raw-http.js';

/**
 * The spellings that reach every route's handler. (A fragment reaches it too, but is read as a query
 * string: a route that validates its query refuses it with `400 validation_failed`.)
 */
export const REACHING_FORMS = ['canonical', 'absolute-form', 'percent-encoded letters', 'empty query'] as const;

/** The form whose `Host` the emulator never answers to: every route must refuse it. */
export const FOREIGN_HOST_FORM = 'absolute-form naming another host';

/**
 * Every spelling of `path` that a client can put on the request line: absolute-form, percent
 * encoding, `//` runs, `.` and `..` segments, a trailing slash, case, and a few oddities.
 */
export function targetForms(path: string, port: number): [string, string][] {
  const encodeLetters = (p: string) => p.replace(/[a-z]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  const last = path.lastIndexOf('/');
  return [
    ['canonical', path],
    ['absolute-form', `http://127.0.0.1:${port}${path}`],
    ['absolute-form, upper-case scheme', `HTTP://localhost:${port}${path}`],
    [FOREIGN_HOST_FORM, `http://rebound.example${path}`],
    ['percent-encoded letters', encodeLetters(path)],
    ['percent-encoded slashes', path.replaceAll('/', '%2F')],
    ['leading //', `/${path}`],
    ['// inside', `${path.slice(0, last)}//${path.slice(last + 1)}`],
    ['. segment', `${path.slice(0, last)}/.${path.slice(last)}`],
    ['.. segment', `${path.slice(0, last)}/x/..${path.slice(last)}`],
    ['encoded .. segment', `${path.slice(0, last)}/x/%2e%2e${path.slice(last)}`],
    ['trailing slash', `${path}/`],
    ['upper case', path.toUpperCase()],
    ['mixed case', path.replace(/[a-z]/, (c) => c.toUpperCase())],
    ['semicolon parameter', `${path};x=1`],
    ['fragment', `${path}#x`],
    ['backslashes', path.replaceAll('/', '\\')],
    ['empty query', `${path}?`],
  ];
}

/** A route's URL pattern with its parameters filled in from `values` (by parameter name). */
export function fillPath(url: string, values: Record<string, string>): string {
  return url.replace(/:(\w+)/g, (_, name: string) => values[name] ?? '00000000-0000-4000-8000-000000000000');
}

/** One request on its own connection, written as is. */
export interface RawRequest {
  method: string;
  target: string;
  port: number;
  /** `Authorization: Bearer <bearer>` when set. */
  bearer?: string;
  /** Sent as JSON with its length. */
  body?: string;
  idempotencyKey?: string;
}

/** Sends a request as raw HTTP/1.1 (so the target is exactly what is written) and reads the answer. */
export function exchange(r: RawRequest): Promise<RawAnswer> {
  const lines = [
    `${r.method} ${r.target} HTTP/1.1`,
    `Host: 127.0.0.1:${r.port}`,
    ...(r.bearer === undefined ? [] : [`Authorization: Bearer ${r.bearer}`]),
    'Connection: close',
    ...(r.idempotencyKey === undefined ? [] : [`Idempotency-Key: ${r.idempotencyKey}`]),
    ...(r.body === undefined ? [] : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(r.body)}`]),
  ];
  return rawExchange(r.port, `${lines.join('\r\n')}\r\n\r\n${r.body ?? ''}`);
}

/** A JSON body the route's method takes (the app API's own shapes; `{}` for the control API). */
export function bodyFor(route: RouteEntry): string | undefined {
  if (!['POST', 'PUT', 'PATCH'].includes(route.method)) return undefined;
  if (route.url.startsWith('/_emulator')) return '{}';
  if (route.method === 'PUT') return JSON.stringify([{ name: 'ping', description: 'Ping' }]);
  return JSON.stringify({ content: 'hello' });
}

/**
 * Whether a refusal is the contract's envelope. A HEAD answer has the head of one and no body, except
 * when the HTTP layer refused the request line before it could read the method: then the envelope
 * is written whole, and the connection closed.
 */
export function isEnvelope(method: string, r: RawAnswer): boolean {
  if (r.headers['content-type'] !== 'application/json; charset=utf-8') return false;
  if (method === 'HEAD' && r.body === '') return true;
  return typeof r.json?.error?.code === 'string' && typeof r.json?.error?.message === 'string';
}
