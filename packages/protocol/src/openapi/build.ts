import type { TSchema } from '@sinclair/typebox';
import { ERROR_DESCRIPTIONS, ERROR_STATUS, type ErrorCode } from '../errors.js';
import { GATEWAY_EVENTS } from '../events.js';
import { API_PREFIX, IDEMPOTENCY_KEY_PATTERN, LIMITS } from '../limits.js';
import { GATEWAY_EVENT_SCHEMAS } from '../schemas/gateway-events.js';
import { COMPONENT_SCHEMAS } from './components.js';
import { withDocumentRules } from './document-rules.js';
import { commonErrors, ENDPOINTS, type EndpointSpec } from './endpoints.js';
import { componentRef, errorEnvelopeOf, type JsonValue, schemaToJson } from './json-schema.js';

/** A plain JSON object of the OpenAPI document. */
export type OpenApiDocument = Record<string, unknown> & {
  openapi: '3.1.0';
  paths: Record<string, Record<string, unknown>>;
};

const ref = componentRef;
const names = new Set(Object.keys(COMPONENT_SCHEMAS));
const toJson = (schema: TSchema, root: boolean): JsonValue => schemaToJson(schema, names, root);

/** A parameter of the document, its fields in the document's order. */
const param = (name: string, where: 'path' | 'query' | 'header', description: string, schema: JsonValue) => ({
  name,
  in: where,
  required: where === 'path',
  description,
  schema,
});

/** A response header of the document's components. */
const header = (description: string, schema: JsonValue, required = true) => ({ description, required, schema });

const PARAMETERS: Record<EndpointSpec['params'][number], JsonValue> = {
  boardId: param('boardId', 'path', 'Board id; a malformed UUID is `400 validation_failed`.', ref('Uuid')),
  messageId: param('messageId', 'path', 'Message id (UUID).', ref('Uuid')),
  userId: param('userId', 'path', 'User id (UUID).', ref('Uuid')),
  token: param(
    'token',
    'path',
    'Interaction token: opaque base64url of at least 32 random bytes. It is the credential of this call.',
    { type: 'string', minLength: 1 },
  ),
  before: param('before', 'query', 'Return only messages whose `seq` is strictly below this value.', {
    type: 'integer',
    minimum: 1,
  }),
  limit: param('limit', 'query', 'Most messages returned.', {
    type: 'integer',
    minimum: 1,
    maximum: LIMITS.listMax,
    default: LIMITS.listDefault,
  }),
  idempotencyKey: param(
    'Idempotency-Key',
    'header',
    'Same key from the same credential within 24 h replays the first response; reused with another body is `422`; while the first is in flight `409`.',
    { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN },
  ),
};

const RATE_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

const REPLAY_HEADER = { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } };

function errorResponse(status: number, codes: ErrorCode[]): JsonValue {
  const headers: { [k: string]: JsonValue } = { ...RATE_HEADERS };
  if (status === 429) headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
  if (status === 401) headers['WWW-Authenticate'] = { $ref: '#/components/headers/WWW-Authenticate' };
  return {
    description: codes.map((c) => `\`${c}\`: ${ERROR_DESCRIPTIONS[c]}`).join(' '),
    headers,
    content: { 'application/json': { schema: errorEnvelopeOf(codes) } },
  };
}

function operation(e: EndpointSpec): JsonValue {
  const responses: { [k: string]: JsonValue } = {};
  if (e.n === 13) {
    responses['200'] = {
      description:
        'The event stream: `retry: 1000`, then a `ready` frame, then events with increasing `id`s and `: keep-alive` comments when idle. Each frame carries one `data:` line of JSON `{ "type": <event>, ...payload }`.',
      headers: {
        ...RATE_HEADERS,
        'Cache-Control': { schema: { type: 'string', const: 'no-cache' } },
        'X-Accel-Buffering': {
          description: 'Always `no`: asks a proxy in between (nginx) not to buffer the stream.',
          schema: { type: 'string', const: 'no' },
        },
      },
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  } else if (e.success.schema === null) {
    responses[String(e.success.status)] = { description: 'Done; no body.', headers: RATE_HEADERS };
  } else {
    responses[String(e.success.status)] = {
      description: 'Success.',
      // A keyed write's success is remembered; its replay says so (only successes are replayed).
      headers: e.params.includes('idempotencyKey') ? { ...RATE_HEADERS, ...REPLAY_HEADER } : RATE_HEADERS,
      content: { 'application/json': { schema: ref(e.success.schema) } },
    };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...e.errors, ...commonErrors(e)]) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = errorResponse(status, codes);
  }
  const op: { [k: string]: JsonValue } = {
    operationId: e.operationId,
    summary: e.summary,
    description: `Endpoint ${e.n} of the app API.`,
    tags: [e.path.split('/')[1] ?? 'app'],
    parameters: e.params.map((p) => PARAMETERS[p]),
    responses,
    security: e.auth ? [{ bearerAuth: [] }] : [],
  };
  if (e.n === 13)
    op['x-gateway-events'] = Object.fromEntries(
      GATEWAY_EVENTS.map((n) => [n, ref(GATEWAY_EVENT_SCHEMAS[n].title as string)]),
    );
  if (e.body) op.requestBody = { required: true, content: { 'application/json': { schema: ref(e.body) } } };
  return op;
}

/**
 * Builds the OpenAPI 3.1 document of the app API from the protocol schemas: the 13 endpoints,
 * bearer security on all but `POST /interactions/{token}`, every status of the contract with its
 * error envelope, and the rate-limit headers on every response.
 *
 * @param serverUrl - The base URL to list under `servers`.
 * @defaultValue serverUrl `http://127.0.0.1:8787/api/v1`
 */
export function buildOpenApiDocument(serverUrl = `http://127.0.0.1:8787${API_PREFIX}`): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of ENDPOINTS) {
    paths[e.path] ??= {};
    (paths[e.path] as Record<string, unknown>)[e.method] = operation(e);
  }
  const schemas = Object.fromEntries(
    Object.entries(COMPONENT_SCHEMAS).map(([k, s]) => [k, withDocumentRules(k, toJson(s, true))]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Board platform app API',
      version: '1',
      description:
        "The app API of the board-based chat platform, as pinned down by the boardbot contract. Every response carries the three `X-RateLimit-*` headers; `X-RateLimit-Reset` is the number of seconds until the window resets, decimal with up to 3 places. They describe the window the request was counted in: its credential's (the app token, or the interaction token of `POST /interactions/{token}`), or, for a request without a valid credential (a `401`, an unknown interaction token, a request the HTTP layer refused before it was read), a window of the caller's IP address of the same size. Once an address's window is spent, its requests without a valid credential get `429 rate_limited` before the credential is looked at; a refusal of the HTTP layer keeps its own status and carries the spent window.",
    },
    servers: [{ url: serverUrl }],
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'App (bot) token.' } },
      headers: {
        'X-RateLimit-Limit': header('Requests allowed per window.', { type: 'integer', minimum: 1 }),
        'X-RateLimit-Remaining': header('Requests left in the current window.', { type: 'integer', minimum: 0 }),
        'X-RateLimit-Reset': header('Seconds until the window resets, decimal with up to 3 places (e.g. `0.734`).', {
          type: 'string',
          pattern: '^\\d+(\\.\\d{1,3})?$',
        }),
        'Retry-After': header('Whole seconds to wait, rounded up.', { type: 'integer', minimum: 0 }),
        'WWW-Authenticate': header('Always `Bearer`.', { type: 'string' }),
        'Idempotent-Replayed': header(
          'Present, as `true`, when this answer is the stored answer of an earlier request with the same `Idempotency-Key`; nothing was written again.',
          { type: 'string', const: 'true' },
          false,
        ),
      },
      schemas,
    },
  };
}
