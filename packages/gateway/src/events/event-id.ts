const DECIMAL = /^\d+$/;

function strip(id: string): string {
  let i = 0;
  while (i < id.length - 1 && id.charCodeAt(i) === 0x30) i++;
  return i === 0 ? id : id.slice(i);
}

/**
 * The value of a decimal id of at most 15 digits (exact in a double), or -1 for anything else. This
 * runs for every event, so it is a plain loop rather than a regular expression.
 *
 * @param id - An event id.
 */
export function smallDecimal(id: string): number {
  const n = id.length;
  if (n === 0 || n > 15) return -1;
  let value = 0;
  for (let i = 0; i < n; i++) {
    const digit = id.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
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
  const x = smallDecimal(a);
  const y = smallDecimal(b);
  if (x >= 0 && y >= 0) return x - y;
  if (!DECIMAL.test(a) || !DECIMAL.test(b)) return undefined;
  const p = strip(a);
  const q = strip(b);
  if (p.length !== q.length) return p.length - q.length;
  return p < q ? -1 : p > q ? 1 : 0;
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
