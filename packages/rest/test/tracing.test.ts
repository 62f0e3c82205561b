import { BOARD, message, rateLimitHeaders, type Script, sendJson } from '@boardbot/test-support';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { clientFor } from './support/client-for.js';
import { scriptedClients } from './support/scripted-clients.js';

const TOKEN = 'app-token-for-tracing';
const RL = rateLimitHeaders(1000, 999, 1);
const ok: Script = (_req, res) => sendJson(res, 200, message(1), RL);
const start = scriptedClients({ token: TOKEN });

function sdk() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider };
}

describe('tracing', () => {
  it('makes each call a client span, child of the given trace context, and sends its traceparent and baggage', async () => {
    const { exporter, provider } = sdk();
    const { server, client } = await start(ok, { tracerProvider: provider, retries: 0 });
    const parent = provider.getTracer('test').startSpan('handler');
    const baggage = propagation.createBaggage({ 'boardbot.handler': { value: 'Greeter.hello' } });
    const traceContext = propagation.setBaggage(trace.setSpan(context.active(), parent), baggage);
    await client.sendMessage(BOARD, { content: 'hi' }, { traceContext });
    parent.end();

    const [span] = exporter.getFinishedSpans().filter((s) => s.name !== 'handler');
    expect(span?.name).toBe('POST /boards/{boardId}/messages');
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(span?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.template': '/boards/{boardId}/messages',
      'http.response.status_code': 200,
    });
    const headers = server.received[0]?.headers ?? {};
    const ctx = span?.spanContext();
    expect(headers.traceparent).toBe(`00-${ctx?.traceId}-${ctx?.spanId}-01`);
    expect(headers.baggage).toBe('boardbot.handler=Greeter.hello');
  });

  it('marks a failed call’s span as an error with the status and the code', async () => {
    const { exporter, provider } = sdk();
    const { client } = await start(
      (_req, res) => sendJson(res, 404, { error: { code: 'not_found', message: 'no such board' } }, RL),
      { tracerProvider: provider, retries: 0 },
    );
    await expect(client.getBoard(BOARD)).rejects.toMatchObject({ status: 404 });
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe('GET /boards/{boardId}');
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes).toMatchObject({ 'http.response.status_code': 404, 'error.type': 'BOARDBOT_API_ERROR' });
  });

  it('sends no trace header with tracerProvider: false, nor without an SDK and a trace to continue', async () => {
    const { server, client } = await start(ok, { tracerProvider: false });
    await client.sendMessage(BOARD, { content: 'a' });
    await client.close();
    await clientFor(server, { token: TOKEN }).sendMessage(BOARD, { content: 'b' });
    for (const received of server.received) expect(received.headers.traceparent).toBeUndefined();
  });
});
