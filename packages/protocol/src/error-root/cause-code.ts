/**
 * The first error code along `cause`'s chain (`ECONNREFUSED`, `UND_ERR_SOCKET`...), for a message
 * that names what failed. A cause's own message is never quoted: a transport's error may quote the
 * request, credentials included (fetch quotes a header value it refuses).
 *
 * @param cause - what a transport threw, often fetch's `TypeError('fetch failed')` around the reason
 * @example
 * causeCode(new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }));
 * // 'ECONNREFUSED'
 */
export function causeCode(cause: unknown): string | undefined {
  for (let node = cause, depth = 0; typeof node === 'object' && node !== null && depth < 8; depth++) {
    const { code, cause: next } = node as { code?: unknown; cause?: unknown };
    // Only what looks like a code: an identifier in capitals, never free text.
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,63}$/.test(code)) return code;
    node = next;
  }
  return undefined;
}
