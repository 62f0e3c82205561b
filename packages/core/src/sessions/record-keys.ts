// A session often keeps records keyed by what people type (votes by the word voted for). class-
// transformer, which turns sessions into JSON and back, reads `value.constructor` of each plain
// object it converts and skips keys named like Object.prototype's members: a record with the key
// `constructor` made every read of the session throw, and one with `toString` lost it at the next
// read. So such keys cross class-transformer escaped, and the records a handler gets have no
// prototype: `counts['constructor']` is undefined until someone votes for it.

/** Starts an escaped key: a character nobody types, and that JSON keeps. */
const ESCAPE = '\u0000';

function escapeKey(key: string): string {
  return key in Object.prototype || key.startsWith(ESCAPE) ? `${ESCAPE}${key}` : key;
}

/** Whether a value is a record (a plain object, or one without a prototype), not a class instance. */
function isRecord(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Whether the walks leave a value as it is: not an object, or one of JavaScript's own (a Date). */
function opaque(value: unknown): value is unknown {
  return (
    typeof value !== 'object' ||
    value === null ||
    value instanceof Date ||
    value instanceof Map ||
    value instanceof Set ||
    value instanceof RegExp ||
    ArrayBuffer.isView(value)
  );
}

/** A record without a prototype, holding `entries` under their keys (`__proto__` included, as an own key). */
function ownRecord(entries: Iterable<[string, unknown]>): Record<string, unknown> {
  const record: Record<string, unknown> = Object.create(null);
  for (const [key, value] of entries) record[key] = value;
  return record;
}

/**
 * A copy of `value` (a session value, or its stored JSON) whose records' keys are escaped, for
 * class-transformer: class instances stay instances of their class, records become plain objects.
 */
export function escapedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(escapedKeys);
  if (opaque(value)) return value;
  const entries = Object.entries(value as object).map(([k, v]): [string, unknown] => [escapeKey(k), escapedKeys(v)]);
  if (isRecord(value as object)) return Object.fromEntries(entries);
  return Object.assign(Object.create(Object.getPrototypeOf(value) as object) as object, Object.fromEntries(entries));
}

/**
 * `value` with its records' keys as they were before {@link escapedKeys}, each record without a
 * prototype; a class instance is changed in place (an escaped key on it, a stored field named like an
 * Object.prototype member, is dropped: no class declares one).
 */
export function restoredKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(restoredKeys) as T;
  if (opaque(value)) return value;
  const target = value as Record<string, unknown>;
  if (isRecord(target)) {
    return ownRecord(
      Object.entries(target).map(([k, v]) => [k.startsWith(ESCAPE) ? k.slice(ESCAPE.length) : k, restoredKeys(v)]),
    ) as T;
  }
  for (const key of Object.keys(target)) {
    if (key.startsWith(ESCAPE)) delete target[key];
    else target[key] = restoredKeys(target[key]);
  }
  return value;
}
