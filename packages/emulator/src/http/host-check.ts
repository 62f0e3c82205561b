import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { isLoopbackAddress } from '../auth/exposure.js';
import { PlatformError } from '../errors.js';

/** The `Host` names an emulator bound to loopback accepts by default, with any port. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** A listen address as it appears in a `Host` header: IPv6 in brackets, lower case. */
function asHostName(host: string): string {
  const lower = host.toLowerCase();
  return isIP(lower) === 6 ? `[${lower}]` : lower;
}

/**
 * The host name a request is addressed to, without its port, lower case: the authority of an
 * absolute-form target (RFC 9112 §3.2.2: it overrides `Host`), else the `Host` header.
 */
export function requestHostName(request: FastifyRequest): string | undefined {
  const absolute = /^https?:\/\/([^/?#]*)/i.exec(request.url);
  const host = absolute ? absolute[1] : request.headers.host;
  if (host === undefined || host === '') return undefined;
  const name = /^(\[[^\]]*\]|[^:]*)(?::\d*)?$/.exec(host)?.[1];
  return name?.toLowerCase().replace(/\.$/, '');
}

/**
 * Which `Host` names the server answers to, decided when it starts listening: none (any host) when
 * it listens beyond loopback and no list was configured, otherwise the loopback names, the listen
 * address itself and the configured `allowedHosts` (`'*'` among them accepts any).
 */
export function allowedHostNames(
  listenHost: string,
  configured: readonly string[] | undefined,
): Set<string> | undefined {
  if (configured?.includes('*')) return undefined;
  if (configured === undefined && !isLoopbackAddress(listenHost)) return undefined;
  return new Set([...LOOPBACK_HOSTS, asHostName(listenHost), ...(configured ?? []).map(asHostName)]);
}

/**
 * Refuses a request addressed to a host the server does not answer to (a DNS-rebinding page that
 * resolved its own name to 127.0.0.1 sends its own name as `Host`), or to no host, with
 * `400 bad_request`; the gate runs it before anything else.
 *
 * @param names - The accepted names (see {@link allowedHostNames}), undefined for any.
 */
export function checkHost(request: FastifyRequest, names: Set<string> | undefined): void {
  const name = requestHostName(request);
  if (name === undefined) {
    throw new PlatformError('bad_request', 'Missing Host header: HTTP/1.1 requests must name their host');
  }
  if (names !== undefined && !names.has(name)) {
    throw new PlatformError(
      'bad_request',
      `This emulator does not answer to the host "${name}": it accepts ${[...names].join(', ')} (any port); add the name to the emulator's allowedHosts option to accept it`,
    );
  }
}
