/** The `code` of a client's or server's error (`ECONNREFUSED`, a SQLSTATE such as `42501`), if it has one. */
export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether `code` is a SQLSTATE (the server's five-character code), not a client's (`ECONNREFUSED`). */
export function isSqlState(code: string): boolean {
  return /^[0-9A-Z]{5}$/.test(code);
}

/**
 * Whether an error's code says the database is not there for us: a client's own failure (an errno,
 * `CONNECT_TIMEOUT`), or a SQLSTATE of connection (08), login (28), no such database (3D), or a
 * server shutting down or starting (57P).
 */
export function unreachable(code: string): boolean {
  return !isSqlState(code) || /^(08|28|3D|57P)/.test(code);
}
