import { API_PREFIX, buildOpenApiDocument, COMPONENT_SCHEMAS, checkerFor } from '@boardbot/protocol';

// A small checker of app API responses against the OpenAPI document built from the protocol: the
// status must be documented for the operation, the documented headers must be present and match
// their schemas, and the body must match the documented schema (component schemas are checked with
// the protocol's compiled checkers; error bodies also against the operation's list of codes).

type Json = Record<string, unknown>;
type SchemaRef = { $ref?: string; allOf?: Json[] };
interface ResponseSpec {
  headers?: Record<string, { $ref?: string; schema?: Json }>;
  content?: Record<string, { schema: SchemaRef }>;
}
interface Operation {
  operationId: string;
  responses: Record<string, ResponseSpec>;
}

const doc = buildOpenApiDocument();
const headerSpecs = (doc.components as { headers: Record<string, { required?: boolean; schema: Json }> }).headers;

const routes = Object.entries(doc.paths).map(([template, ops]) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  ops: ops as Record<string, Operation>,
}));

const refName = (ref: string) => ref.split('/').pop() as string;

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

function checkBody(schema: SchemaRef, body: unknown): string[] {
  const problems: string[] = [];
  const parts = schema.allOf ?? [schema];
  for (const part of parts) {
    if (typeof part.$ref === 'string') {
      const component = COMPONENT_SCHEMAS[refName(part.$ref)];
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

/**
 * Problems of an app API response against the OpenAPI document; empty when it conforms. Paths the
 * document does not list (unknown routes, other methods, unparsable URLs) are checked for the error
 * envelope and the rate-limit headers only.
 */
export function openApiProblems(r: CheckedResponse): { operationId: string | undefined; problems: string[] } {
  const path = (r.url.split('?')[0] ?? r.url).slice(API_PREFIX.length) || '/';
  const route = routes.find((x) => x.pattern.test(path));
  const op = route?.ops[r.method.toLowerCase()];
  const header = (name: string) => {
    const v = r.headers[name.toLowerCase()];
    return v === undefined ? undefined : String(v);
  };
  const problems: string[] = [];
  if (!op) {
    // Outside the documented operations only routing answers exist: a bad URL, no route, wrong method.
    if (![400, 404, 405].includes(r.status)) problems.push(`undocumented operation answered ${r.status}`);
    for (const h of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
      const spec = headerSpecs[h];
      const p = spec && checkHeader(h, header(h), spec.schema);
      if (p) problems.push(p);
    }
    problems.push(...checkBody({ $ref: '#/components/schemas/ErrorEnvelope' }, parseJson(r.body)));
    return { operationId: undefined, problems };
  }
  const spec = op.responses[String(r.status)];
  if (!spec)
    return { operationId: op.operationId, problems: [`status ${r.status} is not documented for ${op.operationId}`] };
  for (const [name, h] of Object.entries(spec.headers ?? {})) {
    const resolved = h.$ref ? headerSpecs[refName(h.$ref)] : { required: false, schema: h.schema ?? {} };
    if (!resolved) continue;
    if (!resolved.required && header(name) === undefined) continue;
    const p = checkHeader(name, header(name), resolved.schema);
    if (p) problems.push(p);
  }
  const [mediaType, media] = Object.entries(spec.content ?? {})[0] ?? [];
  const contentType = header('content-type') ?? '';
  if (!mediaType) {
    if (r.body.length > 0) problems.push(`status ${r.status} must have no body`);
  } else if (!contentType.startsWith(mediaType)) {
    problems.push(`content-type ${contentType} is not ${mediaType}`);
  } else if (mediaType === 'application/json' && media) {
    problems.push(...checkBody(media.schema, parseJson(r.body)));
  }
  return { operationId: op.operationId, problems };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return Symbol('not JSON');
  }
}

/** Every operation id of the document. */
export const OPERATION_IDS: string[] = routes.flatMap((r) => Object.values(r.ops).map((o) => o.operationId));
