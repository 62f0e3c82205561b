import { COLOR_PATTERN, checkerFor, type ErrorDetail, HTTP_URL_PATTERN, UUID_PATTERN } from '@boardbot/protocol';
import type { TSchema } from '@sinclair/typebox';
import type { FastifySchemaCompiler } from 'fastify';
import { validationFailed } from '../errors.js';

const INTEGER = /^-?\d{1,16}$/;

// Query strings are text; integer parameters are converted only when the text is exactly an integer,
// so `limit=1.5`, `limit=ten` or `limit=` stay strings and fail the schema (CONTRACT: `400
// validation_failed`, never a silent default).
function coerceQuery(schema: TSchema, data: unknown): unknown {
  if (typeof data !== 'object' || data === null) return data;
  const properties = (schema as { properties?: Record<string, { type?: string }> }).properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    out[k] = properties[k]?.type === 'integer' && typeof v === 'string' && INTEGER.test(v) ? Number(v) : v;
  }
  return out;
}

// TypeBox says "Expected string to match '<regex>' pattern"; people read these better.
const PATTERN_MESSAGES: [string, string][] = [
  [UUID_PATTERN, 'Expected a UUID'],
  [COLOR_PATTERN, 'Expected a color as #RRGGBB'],
  [HTTP_URL_PATTERN, 'Expected an absolute http(s) URL'],
];

function readable(issues: ErrorDetail[]): ErrorDetail[] {
  return issues.map((i) => {
    const known = PATTERN_MESSAGES.find(([pattern]) => i.message.includes(`'${pattern}'`));
    return known ? { path: i.path, message: known[1] } : i;
  });
}

/**
 * Fastify's validator compiler for the protocol's TypeBox schemas: the protocol's compiled
 * `checkerFor`, so the emulator, the clients and the OpenAPI document check with the same schemas.
 * A failure is a `400 validation_failed` whose `details` paths point into the part (`/embeds/0/color`,
 * `/limit`, `/boardId`).
 */
export const typeboxValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const checker = checkerFor(schema);
  return (data: unknown) => {
    const value = httpPart === 'querystring' ? coerceQuery(schema, data) : data;
    const result = checker.check(value);
    return result.ok ? { value } : { error: validationFailed(readable(result.issues)) };
  };
};

/** Throws `400 validation_failed` when a rule of the contract found problems. */
export function assertNoIssues(issues: ErrorDetail[]): void {
  if (issues.length > 0) throw validationFailed(issues);
}
