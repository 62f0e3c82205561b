import type { TSchema } from '@sinclair/typebox';

/** A plain JSON value of an OpenAPI document. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

/**
 * A TypeBox schema as the plain JSON an OpenAPI document holds. TypeBox schemas carry symbols and
 * nested copies of named records; the document wants `$ref`s to its components instead, so every
 * nested schema whose `title` names a component becomes a reference (the schema itself, at the
 * root, stays whole).
 *
 * @param schema - the schema to convert
 * @param components - titles of the document's component schemas
 * @param root - whether `schema` is itself a component (its own title is then kept, not referenced)
 */
export function schemaToJson(schema: TSchema, components: ReadonlySet<string>, root = false): JsonValue {
  const plain = JSON.parse(JSON.stringify(schema)) as JsonValue;
  const walk = (node: JsonValue, top: boolean): JsonValue => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false));
    if (node === null || typeof node !== 'object') return node;
    const title = node.title;
    if (!top && typeof title === 'string' && components.has(title)) return componentRef(title);
    const out: { [k: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(node)) out[k] = walk(v, false);
    return out;
  };
  return walk(plain, root);
}

/** A `$ref` to the component schema `name`. */
export function componentRef(name: string): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}

/**
 * The schema of an error answer that can carry only `codes`: the `ErrorEnvelope` component, with
 * `error.code` narrowed to them.
 *
 * @param codes - the contract's error codes of one status of one operation
 */
export function errorEnvelopeOf(codes: readonly string[]): JsonValue {
  return {
    allOf: [
      componentRef('ErrorEnvelope'),
      { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: [...codes] } } } } },
    ],
  };
}
