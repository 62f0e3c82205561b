import { API_PREFIX, CONTROL_PREFIX, type Logger } from '@boardbot/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { redactUrl } from '../logging.js';
import type { Platform } from '../platform/platform.js';
import { EmulatorMetrics } from './emulator-metrics.js';
import { readBaggage, readRequestId, readTraceparent } from './trace-headers.js';

/** The baggage keys a boardbot bot names its handler and event with (`@boardbot/core`). */
const HANDLER_KEY = 'boardbot.handler';
const EVENT_KEY = 'boardbot.event_id';
const MAX_NAME = 200;

// The app API calls that create a message answer with it: its id links the message to the call.
const CREATES_MESSAGE = new Set([
  `POST ${API_PREFIX}/boards/:boardId/messages`,
  `POST ${API_PREFIX}/interactions/:token`,
]);

// An edit answers with the message as edited: the edit is linked to it, with the content it left.
const EDITS_MESSAGE = `PATCH ${API_PREFIX}/boards/:boardId/messages/:messageId`;

/** The message a call created or edited, and its content after the call. */
const touched = new WeakMap<FastifyRequest, { id: string; edited: boolean; content: string | null }>();

// A message is serialized with its `id` first (`createMessage` builds it so), so the id is read from
// the answer's first bytes instead of parsing the whole answer a second time.
const LEADING_ID = /^\{"id":"([^"\\]{1,64})"/;

/** The `content` a request set (its body, already parsed: the answer is not parsed again), or null. */
function contentOf(request: FastifyRequest): string | null {
  const body = request.body as { content?: unknown; data?: { content?: unknown } } | null | undefined;
  const content = body?.content ?? body?.data?.content;
  return typeof content === 'string' ? content : null;
}

/** The `id` of the message an answer carries; observing never fails an answer. */
export function messageIdOf(payload: string): string | undefined {
  const leading = LEADING_ID.exec(payload);
  if (leading) return leading[1];
  try {
    const id = (JSON.parse(payload) as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

function apiOf(route: string): string {
  if (route.startsWith(API_PREFIX)) return 'app';
  if (route.startsWith(CONTROL_PREFIX)) return 'control';
  return 'other';
}

function bounded(text: string | undefined): string | null {
  return text === undefined || text === '' ? null : text.slice(0, MAX_NAME);
}

/**
 * Observes every request: counts it for `GET /metrics`, logs it (info) with the `X-Request-Id`,
 * trace id and handler the client sent, and remembers each app API call for the playground's "why".
 * @param app - the server
 * @param p - the platform (its streams and storage for the metrics, its call log)
 * @param logger - where request lines go, when it logs at info
 */
export function installObserve(app: FastifyInstance, p: Platform, logger: Logger | undefined): EmulatorMetrics {
  const metrics = new EmulatorMetrics(p);
  const calls = p.calls;
  p.onReset(() => calls.clear());
  const observe = (request: FastifyRequest, reply: FastifyReply): void => {
    const route = request.routeOptions.url ?? 'unmatched';
    const api = apiOf(route);
    const status = reply.statusCode;
    metrics.observe(api, request.method, route, status, reply.elapsedTime / 1000);
    const headers = request.headers;
    const requestId = readRequestId(headers['x-request-id']);
    const trace = readTraceparent(headers.traceparent);
    const baggage = readBaggage(headers.baggage);
    const handler = bounded(baggage.get(HANDLER_KEY));
    if (logger) {
      const line: Record<string, unknown> = { method: request.method, url: redactUrl(request.url), status };
      if (requestId) line.request_id = requestId;
      if (trace) line.trace_id = trace.traceId;
      if (handler) line.handler = handler;
      logger.info({ ...line, ms: Math.round(reply.elapsedTime) }, 'request');
    }
    if (api !== 'app') return;
    const t = touched.get(request);
    calls.record({
      at: new Date().toISOString(),
      method: request.method,
      route,
      status,
      duration_ms: Math.round(reply.elapsedTime * 100) / 100,
      request_id: requestId ?? null,
      trace_id: trace?.traceId ?? null,
      span_id: trace?.spanId ?? null,
      handler,
      event_id: bounded(baggage.get(EVENT_KEY)),
      message_id: (t && !t.edited ? t.id : null) ?? null,
      edited_message_id: t?.edited ? t.id : null,
      content: t?.content ?? null,
    });
  };
  // Callback hooks: an async one costs a promise per request for work that never waits.
  app.addHook('onSend', (request, reply, payload, done) => {
    const route = request.routeOptions.url;
    if (reply.statusCode < 300 && typeof payload === 'string') {
      const call = `${request.method} ${route}`;
      const edited = call === EDITS_MESSAGE;
      if (edited || CREATES_MESSAGE.has(call)) {
        const id = messageIdOf(payload);
        if (id !== undefined) touched.set(request, { id, edited, content: contentOf(request) });
      }
    }
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    observe(request, reply);
    done();
  });
  app.get('/metrics', { config: { auth: 'none' } }, async (_request, reply) => {
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
  return metrics;
}
