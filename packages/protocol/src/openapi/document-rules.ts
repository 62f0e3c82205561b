import type { JsonValue } from './json-schema.js';

// Rules of rules.ts that JSON Schema can say, added to the document's component schemas so that a
// client or validator generated from docs/openapi.yaml refuses what the server refuses. The TypeBox
// checkers leave them to rules.ts, whose messages name the problem better than `minProperties` does.

/** `messageBodyIssues`: a message needs a non-empty `content` or at least one embed. */
const NON_EMPTY_MESSAGE: JsonValue = [
  { required: ['content'], properties: { content: { minLength: 1 } } },
  { required: ['embeds'], properties: { embeds: { minItems: 1 } } },
];

/** Keywords added to a component schema of the document, by component name. */
export const DOCUMENT_RULES: Readonly<Record<string, { [k: string]: JsonValue }>> = {
  // `messageBodyIssues`: an embed must have at least one key (`{}` is refused).
  Embed: { minProperties: 1 },
  SendMessageBody: { anyOf: NON_EMPTY_MESSAGE },
  InteractionResponseBody: { anyOf: NON_EMPTY_MESSAGE },
};

/**
 * A component schema with the rules of {@link DOCUMENT_RULES} that apply to it.
 *
 * @param name - the component's name
 * @param schema - its JSON schema, converted from TypeBox
 */
export function withDocumentRules(name: string, schema: JsonValue): JsonValue {
  const rules = DOCUMENT_RULES[name];
  if (!rules || schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  return { ...schema, ...rules };
}
