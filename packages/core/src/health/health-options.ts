/** Options of the bot's health endpoint (`createBot({ health })`). */
export interface HealthOptions {
  /** The port `/healthz`, `/readyz` and `/metrics` listen on; `0` picks a free one (see `Bot.healthUrl`). */
  port: number;
  /**
   * The interface to listen on. Kubernetes probes and Prometheus reach a pod on its own address: set
   * `'0.0.0.0'` in a container.
   * @defaultValue `'127.0.0.1'`
   */
  host?: string;
  /**
   * `Host` names the endpoint answers to besides IP addresses, `localhost` and `host`; `'*'` answers
   * any. Any other name is refused with `400 bad_request`: a web page that rebinds its own name to
   * the bot's address sends that name. List the name probes or scrapers use, if it is not an address
   * (a compose service name: `['bot']`). From the environment: `BOARDBOT_HEALTH_ALLOWED_HOSTS`,
   * comma-separated.
   * @defaultValue `[]`
   */
  allowedHosts?: readonly string[];
  /**
   * How long the gateway may be reconnecting before `/readyz` says not ready: a short reconnect (a
   * deploy of the platform, a dropped connection) does not take the bot out of rotation.
   * @defaultValue 10_000
   */
  reconnectGraceMs?: number;
}

/** Defaults of the optional {@link HealthOptions}. */
export const DEFAULT_HEALTH_OPTIONS = {
  host: '127.0.0.1',
  allowedHosts: [],
  reconnectGraceMs: 10_000,
} as const satisfies Required<Omit<HealthOptions, 'port'>>;
