import { buildControlOpenApiDocument } from '@boardbot/emulator';
import {
  API_PREFIX,
  buildOpenApiDocument,
  COMPONENT_SCHEMAS,
  CONTROL_PREFIX,
  checkerFor,
  type OpenApiDocument,
} from '@boardbot/protocol';
import type { TSchema } from '@sinclair/typebox';
import { CONTROL_COMPONENT_SCHEMAS } from '../../src/control/openapi/build.js';
import { SECURITY_HEADERS } from '../../src/security-headers.js';

// A small checker of responses against an OpenAPI document: the app API's, built from the protocol,
// and the control API's, built from the emulator's control schemas. The status must be documented
// for the operation, the documented headers must be present and match their schemas, and the body
// must match the documented schema (component schemas are checked with the protocol's compiled
// checkers; error bodies also against the operation's list of codes).

type Json = Record<string, unknown>;
type SchemaRef = { $ref?: string; allOf?: Json[] };
interface HeaderSpec {
  $ref?: string;
  required?: boolean;
  schema?: Json;
}
interface ResponseSpec {
  headers?: Record<string, HeaderSpec>;
  content?: Record<string, { schema: SchemaRef }>;
}
interface Operation {
  operationId: string;
  responses: Record<string, ResponseSpec>;
}

/** A response as the checker sees it. */
export interface CheckedResponse {
  method: string;
  /** Full URL path with query, e.g. `/api/v1/boards?x=1`. */
  url: string;
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The raw body text. */
  body: string;
}

/** Checks responses of one API against its document. */
export interface OpenApiChecker {
  /**
   * Problems of a response; empty when it conforms. Paths the document does not list (unknown
   * routes, other methods, unparsable URLs) are checked for the error envelope (and the headers
   * every answer must carry) only.
   */
  problems(r: CheckedResponse): { operationId: string | undefined; problems: string[] };
  /** Every operation id of the document. */
  operationIds: string[];
}

const refName = (ref: string) => ref.split('/').pop() as string;

/**
 * Headers no API document declares: HTTP's own framing, and the browser hardening the emulator adds
 * to every answer (docs/emulator.md), which is the emulator's, not the platform's contract. Every
 * other header of an answer must be declared.
 */
const FRAMING_HEADERS = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  ...Object.keys(SECURITY_HEADERS).map((name) => name.toLowerCase()),
]);

function checkHeader(name: string, value: string | undefined, schema: Json): string | undefined {
  if (value === undefined) return `missing header ${name}`;
  if (schema.type === 'integer') {
    if (!/^\d+$/.test(value)) return `header ${name}=${value} is not an integer`;
    if (typeof schema.minimum === 'number' && Number(value) < schema.minimum)
      return `header ${name}=${value} < minimum`;
  }
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(value)) {
    return `header ${name}=${value} does not match ${schema.pattern}`;
  }
  if (schema.const !== undefined && value !== schema.const)
    return `header ${name}=${value} is not ${String(schema.const)}`;
  return undefined;
}

function checkBody(schema: SchemaRef, body: unknown, components: Record<string, TSchema>): string[] {
  const problems: string[] = [];
  const parts = schema.allOf ?? [schema];
  for (const part of parts) {
    if (typeof part.$ref === 'string') {
      const component = components[refName(part.$ref)];
      if (!component) {
        problems.push(`unknown component ${part.$ref}`);
        continue;
      }
      const result = checkerFor(component).check(body);
      if (!result.ok)
        problems.push(...result.issues.map((i) => `${refName(part.$ref as string)}${i.path}: ${i.message}`));
    } else {
      // The error responses narrow `error.code` to the operation's codes.
      const codes = (part as { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } }).properties
        ?.error?.properties?.code?.enum;
      const code = (body as { error?: { code?: string } } | undefined)?.error?.code;
      if (codes && (code === undefined || !codes.includes(code))) {
        problems.push(`error code ${String(code)} is not documented for this status (${codes.join(', ')})`);
      }
    }
  }
  return problems;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return Symbol('not JSON');
  }
}

/**
 * A checker of the responses of the API at `prefix` against `doc`.
 *
 * @param doc - the OpenAPI document
 * @param components - the TypeBox schema of each component of the document, by name
 * @param prefix - the path prefix of the document's paths
 * @param everyAnswer - headers every answer carries, undocumented routes included
 * @param routingStatuses - what a path outside the operations may answer (a bad URL, no route, wrong method...)
 * @param declaredOnly - whether every header of an operation's answer, HTTP's framing apart, must be declared
 */
export function openApiChecker(
  doc: OpenApiDocument,
  components: Record<string, TSchema>,
  prefix: string,
  everyAnswer: readonly string[] = [],
  routingStatuses: readonly number[] = [400, 404, 405],
  declaredOnly = false,
): OpenApiChecker {
  const headerSpecs = ((doc.components as { headers?: Record<string, HeaderSpec> }).headers ?? {}) as Record<
    string,
    { required?: boolean; schema: Json }
  >;
  const routes = Object.entries(doc.paths).map(([template, ops]) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    ops: ops as Record<string, Operation>,
  }));

  const problems = (r: CheckedResponse): { operationId: string | undefined; problems: string[] } => {
    const path = (r.url.split('?')[0] ?? r.url).slice(prefix.length) || '/';
    const route = routes.find((x) => x.pattern.test(path));
    // A HEAD answer is its GET's head, without the body.
    const head = r.method === 'HEAD';
    const op = route?.ops[head ? 'get' : r.method.toLowerCase()];
    const header = (name: string) => {
      const v = r.headers[name.toLowerCase()];
      return v === undefined ? undefined : String(v);
    };
    const found: string[] = [];
    if (!op) {
      // Outside the documented operations only routing answers exist: a bad URL, no route, wrong method.
      if (!routingStatuses.includes(r.status)) found.push(`undocumented operation answered ${r.status}`);
      for (const h of everyAnswer) {
        const spec = headerSpecs[h];
        const p = spec && checkHeader(h, header(h), spec.schema);
        if (p) found.push(p);
      }
      if (!head)
        found.push(...checkBody({ $ref: '#/components/schemas/ErrorEnvelope' }, parseJson(r.body), components));
      return { operationId: undefined, problems: found };
    }
    const spec = op.responses[String(r.status)];
    if (!spec)
      return { operationId: op.operationId, problems: [`status ${r.status} is not documented for ${op.operationId}`] };
    const declared = new Set(Object.keys(spec.headers ?? {}).map((n) => n.toLowerCase()));
    for (const name of declaredOnly ? Object.keys(r.headers) : []) {
      const lower = name.toLowerCase();
      if (!FRAMING_HEADERS.has(lower) && !declared.has(lower)) {
        found.push(`header ${name} is not declared for ${r.status} of ${op.operationId}`);
      }
    }
    for (const [name, h] of Object.entries(spec.headers ?? {})) {
      const resolved = h.$ref
        ? headerSpecs[refName(h.$ref)]
        : { required: h.required ?? false, schema: h.schema ?? {} };
      if (!resolved) continue;
      if (!resolved.required && header(name) === undefined) continue;
      const p = checkHeader(name, header(name), resolved.schema);
      if (p) found.push(p);
    }
    const [mediaType, media] = Object.entries(spec.content ?? {})[0] ?? [];
    const contentType = header('content-type') ?? '';
    if (head) {
      if (r.body.length > 0) found.push('a HEAD answer must have no body');
    } else if (!mediaType) {
      if (r.body.length > 0) found.push(`status ${r.status} must have no body`);
    } else if (!contentType.startsWith(mediaType)) {
      found.push(`content-type ${contentType} is not ${mediaType}`);
    } else if (mediaType === 'application/json' && media) {
      found.push(...checkBody(media.schema, parseJson(r.body), components));
    }
    return { operationId: op.operationId, problems: found };
  };
  return { problems, operationIds: routes.flatMap((r) => Object.values(r.ops).map((o) => o.operationId)) };
}

/**
 * The app API's checker: `docs/openapi.yaml`, the three rate-limit headers on every answer, and no
 * header the document does not declare (`Idempotent-Replayed` was once sent undeclared).
 */
export const appApiChecker = openApiChecker(
  buildOpenApiDocument(),
  COMPONENT_SCHEMAS,
  API_PREFIX,
  ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
  undefined,
  true,
);

/**
 * The control API's checker: `docs/control-api.openapi.yaml`. Unknown control paths are behind the
 * admin key too, so outside the operations a 401 is a routing answer as well.
 */
export const controlApiChecker = openApiChecker(
  buildControlOpenApiDocument(),
  CONTROL_COMPONENT_SCHEMAS,
  CONTROL_PREFIX,
  [],
  [400, 401, 404, 405],
);

/** Problems of an app API response against its OpenAPI document; empty when it conforms. */
export const openApiProblems = appApiChecker.problems;

/** Every operation id of the app API's document. */
export const OPERATION_IDS: string[] = appApiChecker.operationIds;
