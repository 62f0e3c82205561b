import type { BotHealth } from '../health/bot-health.js';
import type { HealthOptions } from '../health/health-options.js';
import type { ReplicaStatusSource } from '../health/replica-status.js';
import type { BotParts } from './assemble.js';

/**
 * Serves the bot's `/healthz`, `/readyz` and `/metrics`. The health module (and prom-client) is
 * loaded only now, so a bot without `health` never pays for it.
 * @param options - the port and host
 * @param parts - what the endpoints report on
 * @param replicas - a replica's status, when one was reported already
 */
export async function openHealth(
  options: HealthOptions,
  parts: BotParts,
  replicas: ReplicaStatusSource | undefined,
): Promise<BotHealth> {
  const { BotHealth } = await import('../health/bot-health.js');
  const health = new BotHealth({
    options,
    telemetry: parts.telemetry,
    rest: parts.rest,
    clock: parts.clock,
    log: parts.log,
    pending: () => parts.queue.size,
    inFlight: () => parts.dispatcher.runner.inFlight,
  });
  await health.listen();
  if (replicas) health.reportReplicas(replicas);
  return health;
}
