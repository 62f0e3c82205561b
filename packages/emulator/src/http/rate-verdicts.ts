import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FixedWindowLimiter, RateLimitVerdict } from '../ratelimit/fixed-window.js';
import type { AuthMode } from './types.js';

/** The rate-limit bucket of a caller's address, for requests no credential was counted for. */
export function addressBucket(address: string | undefined): string {
  return `address:${address ?? 'unknown'}`;
}

/**
 * Decides which rate-limit window each answer reports, and counts it (CONTRACT: the three headers on
 * every answer, errors included). A request with a valid credential is counted against that
 * credential's bucket; every other app API request, and every request refused before its API is
 * known (by the HTTP layer, or for its `Host`), is counted against a bucket of the caller's address,
 * so that refusals before authentication are rate limited too. The control API and the public
 * routes are not rate limited: their refusals report a fresh window and count nothing.
 */
export class RateVerdicts {
  // The bucket each request was counted in by the gate, for a refusal answered on its socket later
  // (a body too slow): it reports that bucket rather than count the request a second time.
  private readonly counted = new WeakMap<IncomingMessage, string>();

  /** @param limiter - The emulator's one limiter (credentials' and addresses' buckets alike). */
  constructor(private readonly limiter: FixedWindowLimiter) {}

  /**
   * Counts an app API request against its credential's bucket, or against its address's bucket
   * when it has no valid credential.
   *
   * @param raw - The request, remembered with its bucket.
   * @param credential - The credential's bucket; undefined when none was valid.
   * @param address - The caller's address.
   */
  count(raw: IncomingMessage, credential: string | undefined, address: string | undefined): RateLimitVerdict {
    const bucket = credential ?? addressBucket(address);
    this.counted.set(raw, bucket);
    return this.limiter.take(bucket);
  }

  /** Counts a request refused before any credential was read against its address's bucket. */
  anonymous(address: string | undefined): RateLimitVerdict {
    return this.limiter.take(addressBucket(address));
  }

  /**
   * The window of a refusal that the gate set no headers for: nothing for the control API and the
   * public routes, the caller's address otherwise (a `Host` refused before the gate, a URL that
   * matches no route).
   *
   * @param auth - The access rule of the route the request matched.
   */
  ofRefusal(auth: AuthMode, address: string | undefined): RateLimitVerdict {
    return auth === 'admin' || auth === 'none' ? this.limiter.fresh() : this.anonymous(address);
  }

  /**
   * The window of a refusal written straight to a socket (see `client-errors.ts`): the bucket the
   * request on it was already counted in (its body was too slow), else the address's bucket, counted
   * now (its head could not be read).
   */
  ofSocket(socket: Duplex): RateLimitVerdict {
    const request = (socket as Duplex & { _httpMessage?: { req?: IncomingMessage } })._httpMessage?.req;
    const bucket = request === undefined ? undefined : this.counted.get(request);
    if (bucket !== undefined) return this.limiter.peek(bucket);
    return this.anonymous((socket as Duplex & { remoteAddress?: string }).remoteAddress);
  }
}
