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

/**
 * A fixed-window rate limiter: each credential gets `limit` requests per window, the window starting
 * at its first request (CONTRACT: default 50 per 1-second window). A refused request is not counted,
 * so it has no effect (CONTRACT: "A rejected request has no effect").
 *
 * Buckets live in two generations, `current` and `previous`, and the generations turn at most once
 * per window: a bucket is created in `current`, so when a turn drops `previous`, every bucket in it
 * started at least one window ago and has expired. Finding or creating a bucket is O(1), the turn is
 * O(1), and memory holds the credentials seen in the last two windows at most. The gate only asks
 * for buckets of real credentials (known app and interaction tokens) and of callers' addresses, so
 * no one can fill it with made-up keys.
 */
export class FixedWindowLimiter {
  private current = new Map<string, Bucket>();
  private previous = new Map<string, Bucket>();
  private turnedAt: number;

  /**
   * @param limit - Requests per window.
   * @param windowMs - Window length in milliseconds.
   * @param now - Clock in epoch milliseconds.
   */
  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number,
  ) {
    this.turnedAt = now();
  }

  /** Counts one request of `key` if its window has room. */
  take(key: string): RateLimitVerdict {
    const now = this.now();
    this.turn(now);
    let b = this.current.get(key) ?? this.previous.get(key);
    if (!b || now - b.start >= this.windowMs || now < b.start) {
      b = { start: now, count: 0 };
      this.current.set(key, b);
    }
    const resetMs = b.start + this.windowMs - now;
    if (b.count >= this.limit) return { allowed: false, limit: this.limit, remaining: 0, resetMs };
    b.count++;
    return { allowed: true, limit: this.limit, remaining: this.limit - b.count, resetMs };
  }

  /** The state of `key`'s window now, without counting a request: a fresh window when it has none. */
  peek(key: string): RateLimitVerdict {
    const now = this.now();
    const b = this.current.get(key) ?? this.previous.get(key);
    if (!b || now - b.start >= this.windowMs || now < b.start) return this.fresh();
    const remaining = this.limit - b.count;
    return { allowed: remaining > 0, limit: this.limit, remaining, resetMs: b.start + this.windowMs - now };
  }

  /** The verdict of a request that is not rate limited at all (the control API): a fresh window. */
  fresh(): RateLimitVerdict {
    return { allowed: true, limit: this.limit, remaining: this.limit, resetMs: this.windowMs };
  }

  /** How many buckets are held (for tests and benchmarks of the bound). */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  /** Forgets every bucket (the control API's reset). */
  clear(): void {
    this.current.clear();
    this.previous.clear();
  }

  private turn(now: number): void {
    const since = now - this.turnedAt;
    if (since < this.windowMs && since >= 0) return;
    // Every request since the last turn came within one window of it (a later one would have
    // turned), so after two windows of quiet nothing in `current` is live either. A clock that went
    // back turns too: buckets are judged by their own start, so keeping them a generation is safe.
    this.previous = since >= 2 * this.windowMs ? new Map() : this.current;
    this.current = new Map();
    this.turnedAt = now;
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
