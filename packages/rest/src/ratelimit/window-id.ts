import { createHash } from 'node:crypto';

/**
 * The name of one app token's rate-limit window on one platform, for a store every client of that
 * token shares (`@boardbot/redis`'s keys): the same for a bot's replicas and a script given the same
 * base URL and token, and never the token itself. The base URL is taken as written: give every client
 * the same one.
 *
 * @param baseUrl - the app API's base URL, e.g. `http://127.0.0.1:8787/api/v1`
 * @param token - the app token
 * @returns 16 hexadecimal digits
 */
export function rateLimitWindowId(baseUrl: string, token: string): string {
  return createHash('sha256').update(`${baseUrl}\n${token}`).digest('hex').slice(0, 16);
}
