import { isIP } from 'node:net';

/**
 * The `Host` name of a request, lower case, without its port or a final dot; IPv6 without brackets.
 * Undefined when there is none or it is not a host name.
 */
function hostNameOf(header: string | undefined): string | undefined {
  if (header === undefined || header === '') return undefined;
  const name = /^(?:\[([^\]]*)\]|([^:]*))(?::\d*)?$/.exec(header);
  const bare = name?.[1] ?? name?.[2];
  return bare?.toLowerCase().replace(/\.$/, '');
}

const bracketless = (host: string) => host.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/**
 * Why the health endpoint refuses a request addressed to `header`, or undefined when it answers.
 * A page a person opens can make their browser reach `127.0.0.1` (DNS rebinding), but only under the
 * page's own name, which it sends as `Host`; probes and scrapers address the bot by an IP address
 * (Kubernetes, Prometheus), `localhost`, or a name the operator lists. So it answers an IP literal,
 * `localhost`, the listen address and the `allowedHosts` (`'*'`: any), and refuses any other name.
 *
 * @param header - the request's `Host` header
 * @param listenHost - the interface the endpoint listens on
 * @param allowedHosts - the names accepted besides those
 */
export function healthHostRefusal(
  header: string | undefined,
  listenHost: string,
  allowedHosts: readonly string[],
): string | undefined {
  if (allowedHosts.includes('*')) return undefined;
  const name = hostNameOf(header);
  if (name === undefined) return 'Missing Host header: HTTP/1.1 requests must name their host.';
  if (isIP(name) !== 0 || name === 'localhost' || name === bracketless(listenHost)) return undefined;
  if (allowedHosts.some((allowed) => bracketless(allowed).replace(/\.$/, '') === name)) return undefined;
  return `This health endpoint does not answer to the host ${JSON.stringify(name.slice(0, 100))}: address it by an IP address or localhost, or add the name to health.allowedHosts (BOARDBOT_HEALTH_ALLOWED_HOSTS, comma-separated; '*' for any).`;
}
