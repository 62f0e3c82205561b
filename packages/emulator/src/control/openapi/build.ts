import {
  COMPONENT_SCHEMAS,
  CONTROL_PREFIX,
  componentRef,
  ERROR_DESCRIPTIONS,
  ERROR_STATUS,
  type ErrorCode,
  errorEnvelopeOf,
  type JsonValue,
  type OpenApiDocument,
  schemaToJson,
} from '@boardbot/protocol';
import type { TObject, TSchema } from '@sinclair/typebox';
import { ControlSchemaError } from '../errors.js';
import { ACTIVITY_EVENT_SCHEMAS } from '../schemas/activity.js';
import { COMMON_CONTROL_ERRORS, CONTROL_OPERATIONS, type ControlOperation } from './operations.js';

type JsonObject = { [k: string]: JsonValue };

/**
 * Titled schemas by title: the protocol's components and every titled schema of the control API. A
 * title names one schema: two different schemas under one title would make a wrong `$ref`.
 */
function knownSchemas(): Map<string, TSchema> {
  const known = new Map<string, TSchema>(Object.entries(COMPONENT_SCHEMAS));
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const title = (node as { title?: unknown }).title;
    if (typeof title === 'string') {
      const seen = known.get(title);
      if (seen && JSON.stringify(seen) !== JSON.stringify(node)) throw new ControlSchemaError(title);
      known.set(title, seen ?? (node as TSchema));
    }
    for (const value of Object.values(node)) visit(value);
  };
  for (const op of CONTROL_OPERATIONS) visit([op.params, op.query, op.body, op.success.schema]);
  visit(Object.values(ACTIVITY_EVENT_SCHEMAS));
  return known;
}

/**
 * Every schema the control API's document can name as a component, by name: the protocol's records
 * and the control API's own titled schemas (the conformance tests check answers with them).
 */
export const CONTROL_COMPONENT_SCHEMAS: Record<string, TSchema> = Object.fromEntries(knownSchemas());

/** The component schemas `root` refers to, directly or through other components, by name. */
function usedComponents(root: JsonValue, known: Map<string, TSchema>): Record<string, JsonValue> {
  const names = new Set(known.keys());
  const used: Record<string, JsonValue> = {};
  const collect = (node: JsonValue): void => {
    if (Array.isArray(node)) {
      for (const n of node) collect(n);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const name = typeof node.$ref === 'string' ? node.$ref.split('/').pop() : undefined;
    const schema = name === undefined ? undefined : known.get(name);
    if (name !== undefined && schema && !(name in used)) {
      used[name] = schemaToJson(schema, names, true);
      collect(used[name]);
    }
    for (const value of Object.values(node)) collect(value);
  };
  collect(root);
  return Object.fromEntries(Object.entries(used).sort(([a], [b]) => a.localeCompare(b)));
}

function parameters(where: 'path' | 'query', schema: TObject | undefined, names: ReadonlySet<string>): JsonValue[] {
  if (!schema) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties)
    .filter(([name]) => name !== 'key') // the admin key: see the security schemes
    .map(([name, prop]) => {
      const json = schemaToJson(prop, names) as JsonObject;
      const { description, ...rest } = json;
      const param: JsonObject = { name, in: where, required: where === 'path' || required.has(name), schema: rest };
      if (typeof description === 'string') param.description = description;
      return param;
    });
}

function responses(op: ControlOperation, names: ReadonlySet<string>): JsonObject {
  const out: JsonObject = {};
  const { status, schema } = op.success;
  if (schema === 'event-stream') {
    out[status] = {
      description:
        'The activity stream: `retry: 1000`, a `ready` frame whose `id` is the last id sent so far, then one frame per event (`x-activity-events`) with increasing ids, and `: keep-alive` comments when idle. No replay: a client that reconnects reloads `GET /state`.',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  } else if (schema === null) {
    out[status] = { description: 'Done; no body.' };
  } else {
    out[status] = { description: 'Success.', content: { 'application/json': { schema: schemaToJson(schema, names) } } };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...op.errors, ...COMMON_CONTROL_ERRORS])) {
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  }
  for (const [code, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const response: JsonObject = {
      description: codes.map((c) => `\`${c}\`: ${ERROR_DESCRIPTIONS[c]}`).join(' '),
      content: { 'application/json': { schema: errorEnvelopeOf(codes) } },
    };
    if (code === 401) {
      response.headers = {
        'WWW-Authenticate': { description: 'Always `Bearer`.', required: true, schema: { type: 'string' } },
      };
    }
    out[code] = response;
  }
  return out;
}

function operation(op: ControlOperation, names: ReadonlySet<string>): JsonObject {
  const json: JsonObject = {
    operationId: op.operationId,
    summary: op.summary,
    tags: [op.path.split('/')[1] ?? 'control'],
    parameters: [...parameters('path', op.params, names), ...parameters('query', op.query, names)],
    responses: responses(op, names),
    // CONTRACT (docs/control-api.md): `GET` also takes the admin key as `?key=`, for EventSource and links.
    security: op.method === 'get' ? [{ adminKey: [] }, { adminKeyQuery: [] }] : [{ adminKey: [] }],
  };
  if (op.body) {
    const content = { 'application/json': { schema: schemaToJson(op.body, names) } };
    json.requestBody = { required: !op.bodyOptional, content };
  }
  if (op.success.schema === 'event-stream') {
    json['x-activity-events'] = Object.fromEntries(
      Object.entries(ACTIVITY_EVENT_SCHEMAS).map(([name, s]) => [name, componentRef(s.title as string)]),
    );
  }
  return json;
}

/**
 * Builds the OpenAPI 3.1 document of the emulator's control API (docs/control-api.md) from the
 * schemas its routes validate with: every operation, the admin key as bearer (and as `?key=` on
 * `GET`), each operation's error codes in the contract's envelope, and the activity stream's events.
 * It is not part of the platform's app API, whose document is `buildOpenApiDocument()` of
 * `@boardbot/protocol`.
 *
 * @param serverUrl - The base URL to list under `servers`.
 * @defaultValue serverUrl `http://127.0.0.1:8787/_emulator/v1`
 */
export function buildControlOpenApiDocument(serverUrl = `http://127.0.0.1:8787${CONTROL_PREFIX}`): OpenApiDocument {
  const known = new Map(Object.entries(CONTROL_COMPONENT_SCHEMAS));
  const names = new Set(known.keys());
  const paths: Record<string, Record<string, JsonValue>> = {};
  for (const op of CONTROL_OPERATIONS) {
    paths[op.path] ??= {};
    (paths[op.path] as Record<string, JsonValue>)[op.method] = operation(op, names);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'boardbot emulator control API',
      version: '1',
      description:
        "The emulator's control API: the people's side of the platform (people, boards, apps, messages as a person, slash commands as a person, the activity stream), used by the playground, the test harness and the CLI. It is **not part of the platform's app API** (docs/openapi.yaml): a real platform does not have it. Writes are rate-limit free and raise the same gateway events as app writes; interaction tokens are never shown.",
    },
    servers: [{ url: serverUrl }],
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    security: [{ adminKey: [] }],
    paths,
    components: {
      securitySchemes: {
        adminKey: { type: 'http', scheme: 'bearer', description: "The emulator's admin key (printed at start)." },
        adminKeyQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'key',
          description:
            "The admin key as a query parameter, on `GET` only (a browser's `EventSource` cannot set headers).",
        },
      },
      schemas: usedComponents(paths as unknown as JsonValue, known),
    },
  };
}
