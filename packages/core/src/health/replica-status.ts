/**
 * What a replica adapter (such as `@boardbot/redis`) reports about the shared event feed, for the
 * metrics and for readiness. Given to the bot with `Bot.reportReplicas`.
 */
export interface ReplicaStatus {
  /** `reader`: this replica holds the gateway lease and feeds the stream; `consumer`: it only consumes. */
  role: 'reader' | 'consumer';
  /** Whether this replica is consuming the shared stream (a consumer is ready when it is). */
  consuming: boolean;
  /** Events delivered to the group and not yet acknowledged. */
  pending: number;
  /** Events moved to the dead-letter stream since it was created. */
  deadLettered: number;
}

/** Reads the replica's status when it is needed (each scrape of `/metrics`, each `/readyz`). */
export type ReplicaStatusSource = () => ReplicaStatus | Promise<ReplicaStatus>;
