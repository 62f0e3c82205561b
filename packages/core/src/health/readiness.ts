import type { Clock } from '../kernel/clock.js';
import type { ReplicaStatus } from './replica-status.js';

/**
 * Whether the bot's event feed is up, Kubernetes-style, for the `gateway` check of `/readyz`: the
 * gateway stream is open, or has been reconnecting for less than the grace period. A replica that
 * does not hold the gateway is up when it consumes the shared stream. (The other checks are the
 * bot's parts' own: the commands synced, the bot not stopping.)
 */
export class Readiness {
  private connected = false;
  private reconnectingSince: number | undefined;

  /**
   * @param clock - for the grace period
   * @param graceMs - how long a reconnect may last before readiness drops
   */
  constructor(
    private readonly clock: Clock,
    private readonly graceMs: number,
  ) {}

  /** The gateway (re)connected: a `ready` frame arrived. */
  gatewayConnected(): void {
    this.connected = true;
    this.reconnectingSince = undefined;
  }

  /** The gateway stream dropped and is reconnecting. */
  gatewayReconnecting(): void {
    this.reconnectingSince ??= this.clock.now();
  }

  /**
   * Whether the feed is up as of now.
   * @param replica - the replica's status, when the bot runs as one
   */
  gateway(replica: ReplicaStatus | undefined): boolean {
    if (replica?.role === 'consumer') return replica.consuming;
    const since = this.reconnectingSince;
    return this.connected && (since === undefined || this.clock.now() - since < this.graceMs);
  }
}
