// An HTTP date names its weekday (IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, RFC 850 `Sunday, 06-Nov-94
// ...`, asctime `Sun Nov  6 ...`); without one, `Date.parse` would read odd strings such as "1" as a year.
const WEEKDAY = /[a-z]{3},? /i;

/**
 * Reads an HTTP date (RFC 9110 5.6.7: the `Date` header, or the date form of `Retry-After`) as epoch
 * milliseconds, so the clients can measure server times against the server's own clock.
 *
 * @param value - The header value; `null` or `undefined` when the answer had none.
 * @returns Epoch milliseconds, or `undefined` when the value is absent or not a date.
 */
export function parseHttpDate(value: string | null | undefined): number | undefined {
  if (value == null || !WEEKDAY.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : at;
}
