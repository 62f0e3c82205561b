/** The state of a credential's window after a request was counted (or refused). */
export interface RateLimitVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

interface Bucket {
  start: number;
  count: number;
}

// Buckets of credentials that went quiet are swept when the map grows past this, so a flood of
// distinct (for example, unknown interaction) tokens cannot grow memory without bound.
const SWEEP_AT = 10_000;

/**
 * A fixed-window rate limiter: each credential gets `limit` requests per window, the window starting
 * at its first request (CONTRACT: default 50 per 1-second window). A refused request is not counted,
 * so it has no effect (CONTRACT: "A rejected request has no effect").
 */
export class FixedWindowLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /**
   * @param limit - Requests per window.
   * @param windowMs - Window length in milliseconds.
   * @param now - Clock in epoch milliseconds.
   */
  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Counts one request of `key` if its window has room. */
  take(key: string): RateLimitVerdict {
    const now = this.now();
    let b = this.buckets.get(key);
    if (!b || now - b.start >= this.windowMs || now < b.start) {
      if (!b && this.buckets.size >= SWEEP_AT) this.sweep(now);
      b = { start: now, count: 0 };
      this.buckets.set(key, b);
    }
    const resetMs = b.start + this.windowMs - now;
    if (b.count >= this.limit) return { allowed: false, limit: this.limit, remaining: 0, resetMs };
    b.count++;
    return { allowed: true, limit: this.limit, remaining: this.limit - b.count, resetMs };
  }

  /** The verdict of a request that has no credential to count against: a fresh window. */
  fresh(): RateLimitVerdict {
    return { allowed: true, limit: this.limit, remaining: this.limit, resetMs: this.windowMs };
  }

  /** Forgets every bucket (the control API's reset). */
  clear(): void {
    this.buckets.clear();
  }

  private sweep(now: number): void {
    for (const [k, b] of this.buckets) if (now - b.start >= this.windowMs) this.buckets.delete(k);
  }
}

/** The three rate-limit headers of a verdict (CONTRACT: on every app API answer, errors included). */
export function rateHeaders(v: RateLimitVerdict): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(v.limit),
    'X-RateLimit-Remaining': String(v.remaining),
    'X-RateLimit-Reset': resetSeconds(v.resetMs),
  };
}

/** `X-RateLimit-Reset`: seconds until the window resets, decimal with up to 3 places (CONTRACT). */
export function resetSeconds(resetMs: number): string {
  return (Math.max(0, resetMs) / 1000).toFixed(3);
}
