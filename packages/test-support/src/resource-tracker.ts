import { createHook, executionAsyncId } from 'node:async_hooks';

/** What {@link trackResources} returns. */
export interface ResourceTracker {
  /** How many resources of `type` (`Timeout`, `Immediate`, `TCPWRAP`, ...) made since the start are still alive. */
  alive(type: string): number;
  /** Counts no new resources from now on (so the test's own waiting is not counted), only their end. */
  freeze(): void;
  /** Stops tracking. */
  stop(): void;
}

/**
 * Tracks the async resources (timers, immediates, sockets) created from here on by this async
 * context and everything it starts, until they are destroyed. A leak check counts these instead of
 * every resource of the process (`process.getActiveResourcesInfo()`), which also holds the test
 * runner's own timers and whatever another test left running, and so passed or failed by chance.
 */
export function trackResources(): ResourceTracker {
  const lineage = new Set<number>([executionAsyncId()]);
  const alive = new Map<number, string>();
  let frozen = false;
  const hook = createHook({
    init(id, type, triggerId) {
      if (frozen || (!lineage.has(triggerId) && !lineage.has(executionAsyncId()))) return;
      lineage.add(id);
      if (type !== 'PROMISE') alive.set(id, type);
    },
    destroy(id) {
      alive.delete(id);
    },
  }).enable();
  return {
    alive: (type) => [...alive.values()].filter((t) => t === type).length,
    freeze: () => {
      frozen = true;
    },
    stop: () => hook.disable(),
  };
}
