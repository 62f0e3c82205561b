import type { Clock } from '../kernel/clock.js';
import type { ReplicaStatus } from './replica-status.js';

/** The checks behind `/readyz`, each true when it passes. */
export interface ReadinessChecks {
  /** The gateway stream is open, or has been reconnecting for less than the grace period. */
  gateway: boolean;
  /** `start()` reconciled the commands (or was told not to). */
  commands: boolean;
  /** The bot is not stopping. */
  running: boolean;
}

/**
 * Whether the bot should receive traffic, Kubernetes-style: not before it is started, not while it
 * stops (false from the first moment of a graceful stop), and not while the gateway has been
 * reconnecting for longer than the grace period. A replica that does not hold the gateway is ready
 * when it consumes the shared stream.
 */
export class Readiness {
  private synced = false;
  private connected = false;
  private stopping = false;
  private reconnectingSince: number | undefined;

  /**
   * @param clock - for the grace period
   * @param graceMs - how long a reconnect may last before readiness drops
   */
  constructor(
    private readonly clock: Clock,
    private readonly graceMs: number,
  ) {}

  /** The commands are reconciled. */
  commandsSynced(): void {
    this.synced = true;
  }

  /** The gateway (re)connected: a `ready` frame arrived. */
  gatewayConnected(): void {
    this.connected = true;
    this.reconnectingSince = undefined;
  }

  /** The gateway stream dropped and is reconnecting. */
  gatewayReconnecting(): void {
    this.reconnectingSince ??= this.clock.now();
  }

  /** A graceful stop began. */
  stopStarted(): void {
    this.stopping = true;
  }

  /**
   * The checks as of now.
   * @param replica - the replica's status, when the bot runs as one
   */
  checks(replica: ReplicaStatus | undefined): ReadinessChecks {
    const since = this.reconnectingSince;
    const streamUp = this.connected && (since === undefined || this.clock.now() - since < this.graceMs);
    const gateway = replica?.role === 'consumer' ? replica.consuming : streamUp;
    return { gateway, commands: this.synced, running: !this.stopping };
  }
}
