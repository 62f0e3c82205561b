/**
 * The contract's `error.code` of a failed REST call, as `@boardbot/rest`'s `ApiError` carries it
 * (`apiCode`); `undefined` for any other failure. Read structurally: core sees the REST client
 * through its port, so it does not import the error class.
 */
export function apiCodeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { apiCode?: unknown }).apiCode : undefined;
}
