import { type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { PlatformError } from '../errors.js';
import { type RateLimitVerdict, rateHeaders } from '../ratelimit/fixed-window.js';
import { SECURITY_HEADERS } from '../security-headers.js';

// After an answer to a request that could not be read to its end, the connection is half-closed and
// what the client still sends is read and dropped for this long: closing a socket with unread bytes
// makes the kernel send a reset, which can destroy the answer before the client reads it.
const LINGER_MS = 2000;

/** The server's limits that refusals name. */
export interface HttpLayerLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

const answered = new WeakSet<Duplex>();

/** The contract's error for an error of Node's HTTP parser or of its timeouts; undefined for I/O errors. */
export function clientErrorOf(error: Error & { code?: string; reason?: string }, limits: HttpLayerLimits) {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new PlatformError(
      'request_timeout',
      `The request arrived too slowly: its head must arrive within ${limits.headersTimeoutMs} ms and all of it within ${limits.requestTimeoutMs} ms`,
    );
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return new PlatformError(
      'headers_too_large',
      'The request line and headers are over the limit of 16 KiB: shorten the URL or the headers',
    );
  }
  if (error.code?.startsWith('HPE_')) {
    const reason = error.reason ?? error.message.replace(/^Parse Error: /, '');
    return new PlatformError(
      'bad_request',
      `Malformed HTTP request (${reason}): check the request line, headers and body framing`,
    );
  }
  return undefined;
}

/**
 * Writes a refusal straight to a socket that no request object can answer on (the HTTP parser gave
 * up, or the request is a `CONNECT`): the contract's envelope with the three rate-limit headers of
 * `verdict` (called only when the answer is written, since it may count the request), then a
 * lingering close (see `LINGER_MS`). A socket is answered at most once.
 */
export function answerOnSocket(socket: Duplex, error: PlatformError, verdict: () => RateLimitVerdict): void {
  if (answered.has(socket) || !socket.writable) {
    socket.destroy();
    return;
  }
  answered.add(socket);
  const body = JSON.stringify(error.toEnvelope());
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    ...rateHeaders(verdict()),
    ...SECURITY_HEADERS,
  };
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  socket.end(`HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode]}\r\n${head.join('')}\r\n${body}`);
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP layer refused (malformed request line,
 * headers or chunking, both `Content-Length` and `Transfer-Encoding`, a head over 16 KiB, a head or
 * body too slow) gets the contract's envelope with `400 bad_request`, `431 headers_too_large` or
 * `408 request_timeout`, and the rate-limit headers of `verdictOf(socket)`.
 *
 * @param verdictOf - The window to report: see `RateVerdicts.ofSocket`.
 */
export function clientErrorHandler(limits: HttpLayerLimits, verdictOf: (socket: Duplex) => RateLimitVerdict) {
  return (error: Error & { code?: string }, socket: Duplex): void => {
    // A parser that gave up reports every later chunk of the lingering close too: answered once.
    if (answered.has(socket)) return;
    const mapped = clientErrorOf(error, limits);
    // An answer already started on this connection cannot be replaced; a reset needs nothing.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (mapped === undefined || socket.destroyed || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    answerOnSocket(socket, mapped, () => verdictOf(socket));
  };
}

/**
 * Answers what Node's HTTP server would otherwise answer by itself, without the envelope: a
 * `CONNECT` (the emulator is not a proxy) gets `400 bad_request`, and an `Expect` other than
 * `100-continue` is ignored (RFC 9110 §10.1.1 allows it) instead of a bare `417`.
 *
 * @param verdictOf - The window a refusal on `socket` reports: see `RateVerdicts.ofSocket`.
 */
export function answerServerLevelRequests(server: Server, verdictOf: (socket: Duplex) => RateLimitVerdict): void {
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    answerOnSocket(
      socket,
      new PlatformError('bad_request', 'CONNECT is not supported: the emulator is not a proxy'),
      () => verdictOf(socket),
    );
  });
  server.on('checkExpectation', (request, response) => server.emit('request', request, response));
}
