import type { FastifyRequest } from 'fastify';
import { PlatformError } from '../errors.js';
import { bearerToken } from './tokens.js';

/**
 * Checks the control API's admin key: `Authorization: Bearer <key>`, or `?key=<key>` on `GET`
 * (a browser's `EventSource` cannot set headers). A missing or wrong key is `401 unauthorized`.
 *
 * @param isAdminKey - The key's test, made once by `secretMatcher(adminKey)`.
 */
export function requireAdmin(request: FastifyRequest, isAdminKey: (given: string) => boolean): void {
  let given = bearerToken(request.headers.authorization);
  if (given === undefined && request.method === 'GET') {
    const key = (request.query as Record<string, unknown> | undefined)?.key;
    if (typeof key === 'string') given = key;
  }
  if (given === undefined) {
    throw new PlatformError(
      'unauthorized',
      'Missing admin key: send Authorization: Bearer <admin key> (printed at start)',
    );
  }
  if (!isAdminKey(given)) throw new PlatformError('unauthorized', 'Wrong admin key');
}
