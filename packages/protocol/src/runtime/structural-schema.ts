// String formats (`uuid`, `date-time`) and patterns are checked by regular expressions and a date
// parse on every id and time of every event, which was the largest cost of delivery after
// JSON.parse itself. A client only needs the payload to have the shape its types promise (CONTRACT.md
// "Tolerance": a newer server may differ where the published API says "not shown"), so gateway
// events are checked against copies of the protocol schemas without `format` and `pattern`.
const DROPPED = new Set(['format', 'pattern']);

/**
 * A deep copy of a JSON schema without its string `format` and `pattern` constraints; everything
 * else (types, required fields, unions, literals, lengths, symbol-keyed metadata) is kept.
 *
 * @param schema - A protocol schema.
 */
export function structuralSchema<T>(schema: T): T {
  return copy(schema) as T;
}

function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string | symbol, unknown> = {};
  const source = value as Record<string | symbol, unknown>;
  for (const key of Object.getOwnPropertyNames(source)) {
    if (!DROPPED.has(key)) out[key] = copy(source[key]);
  }
  for (const key of Object.getOwnPropertySymbols(source)) out[key] = copy(source[key]);
  return out;
}
