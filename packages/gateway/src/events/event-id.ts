const DECIMAL = /^\d+$/;

function strip(id: string): string {
  let i = 0;
  while (i < id.length - 1 && id.charCodeAt(i) === 0x30) i++;
  return i === 0 ? id : id.slice(i);
}

/**
 * Compares two event ids in stream order. CONTRACT: ids are decimals, strictly increasing per app,
 * never reused, so they compare as numbers of any length (no precision loss past 2^53).
 *
 * @param a - An event id.
 * @param b - Another event id.
 * @returns Negative, zero or positive like a sort comparator; undefined when either id is not a
 *   decimal (an unknown server's opaque ids), so the caller can fall back to equality.
 */
export function compareEventIds(a: string, b: string): number | undefined {
  if (!DECIMAL.test(a) || !DECIMAL.test(b)) return undefined;
  const x = strip(a);
  const y = strip(b);
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Whether an event with `id` was already accepted, given the last accepted id.
 *
 * @param id - The incoming event's id.
 * @param watermark - The last accepted id, if any.
 */
export function isDuplicateId(id: string, watermark: string | undefined): boolean {
  if (watermark === undefined || id === '') return false;
  const order = compareEventIds(id, watermark);
  return order === undefined ? id === watermark : order <= 0;
}
