import type { Registry } from 'prom-client';
import type { HealthOptions } from './health-options.js';

/** What `/readyz` says: whether ready, and the checks behind it. */
export interface ReadyState {
  /** Whether every check passes. */
  ready: boolean;
  /** Each check by name (`gateway`, `commands`, `running`...; an app's id on a host's overall `/readyz`). */
  checks: Record<string, boolean>;
}

/** One bot's readiness and metrics, as an endpoint it does not own reads them. */
export interface JoinedHealth {
  /** The bot's readiness, now. */
  ready(): Promise<ReadyState>;
  /** The bot's own metrics (no process metrics: the endpoint has those once). */
  readonly registry: Registry;
}

/**
 * An endpoint that serves several bots' health (a host of apps): a bot given one does not listen on
 * a port of its own, it joins the endpoint while it runs.
 */
export interface HealthHub {
  /** The endpoint's options (its reconnect grace applies to the bot's gateway too). */
  readonly options: HealthOptions;
  /**
   * Adds the bot's health to the endpoint.
   * @param health - its readiness and metrics
   * @returns what takes it out again
   */
  join(health: JoinedHealth): () => void;
}
