import { buildOpenApiDocument } from '@boardbot/protocol';
import { Ajv2020 } from 'ajv/dist/2020.js';

// Whether docs/openapi.yaml accepts a request body, judged by an independent JSON Schema validator (Ajv,
// draft 2020-12, the document's dialect) on the document itself, not on the protocol's TypeBox
// checkers: a client generated from the document must refuse what the server refuses.

const doc = buildOpenApiDocument();
// Formats are not asserted (draft 2020-12 makes them annotations); the UUID schema has its pattern.
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema(doc as object, 'openapi');

/** The request body schema of each operation that takes one, by operation id. */
const bodies = new Map<string, string>();
for (const ops of Object.values(doc.paths)) {
  for (const op of Object.values(ops) as { operationId: string; requestBody?: unknown }[]) {
    const schema = (op.requestBody as { content?: Record<string, { schema: { $ref: string } }> } | undefined)
      ?.content?.['application/json']?.schema;
    if (schema) bodies.set(op.operationId, schema.$ref);
  }
}

/**
 * Whether the document's request body schema of `operationId` accepts `body`.
 * @throws Error when the operation takes no JSON body
 */
export function documentAcceptsBody(operationId: string, body: unknown): boolean {
  const ref = bodies.get(operationId);
  if (!ref) throw new Error(`${operationId} takes no JSON body in the document`);
  const validate = ajv.getSchema(`openapi${ref}`);
  if (!validate) throw new Error(`the document has no schema at ${ref}`);
  return validate(body) === true;
}
