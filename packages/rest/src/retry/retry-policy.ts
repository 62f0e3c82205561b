/**
 * Share of each back-off taken off at random: "equal jitter", so retry n waits between half and all of
 * `min(retryMaxMs, retryBaseMs * 2^(n-1))`, and retries spread out yet still grow.
 */
export const RETRY_JITTER = 0.5;

/** Statuses worth another attempt: the server or a proxy failed, the request itself was fine. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504]);
