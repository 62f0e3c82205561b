/**
 * The names of a host's keys: its replicas and its apps' leases, under their own hash tag
 * (`{host:<name>}`), apart from every bot's keys, which stay as a bot alone has them.
 */
export class HostKeys {
  /** Live replicas of the host: member = replica id, score = when its membership expires. */
  readonly members: string;
  /** Counter of fencing tokens of the apps' leases. */
  readonly fence: string;
  private readonly base: string;

  /**
   * @param prefix - the `keyPrefix` option
   * @param name - the host's name (`hostName`)
   */
  constructor(prefix: string, name: string) {
    this.base = `${prefix}:{host:${name}}`;
    this.members = `${this.base}:members`;
    this.fence = `${this.base}:fence`;
  }

  /** The lease of an app (by its id in the host): which replica runs it. */
  app(id: string): string {
    return `${this.base}:app:${id}`;
  }
}
