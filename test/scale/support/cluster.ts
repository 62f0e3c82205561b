import { randomUUID } from 'node:crypto';
import { OnEvent } from '@boardbot/core';
import type { EmulatorLimits } from '@boardbot/emulator';
import { type CountingProxy, type RedisServer, startCountingProxy, startRedisServer } from '@boardbot/test-support';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { type LogLine, ReplicaProcess } from './replica-process.js';

/** The harness's own bot, never started: it only provides the emulator, people and boards. */
class NeverStarted {
  @OnEvent('never.sent')
  noop() {}
}

/** A Redis, an emulator behind a counting proxy, and replicas of the fixture bot as processes. */
export interface Cluster {
  platform: TestPlatform;
  redis: RedisServer;
  proxy: CountingProxy;
  /** The bot's key prefix in Redis. */
  prefix: string;
  /** Every replica started, in order (dead ones included). */
  all: ReplicaProcess[];
  /** Starts a replica (not awaited: call `started()`). */
  start(extra?: Record<string, string>): ReplicaProcess;
  /** Every replica's warnings and errors. */
  report(): string;
  close(): Promise<void>;
}

/**
 * Sets up the replica tests' world.
 * @param options - the emulator's rate limit (requests per second) and other limits, and environment
 *   for every replica
 */
export async function cluster(options: {
  requests: number;
  limits?: Partial<EmulatorLimits>;
  extra?: Record<string, string>;
  onLine?: (l: LogLine, r: ReplicaProcess) => void;
}): Promise<Cluster> {
  const redis = await startRedisServer();
  const platform = await createTestPlatform({
    handlers: [NeverStarted],
    start: false,
    emulator: { rateLimit: { requests: options.requests }, ...(options.limits ? { limits: options.limits } : {}) },
  });
  const proxy = await startCountingProxy(platform.urls.apiUrl);
  const prefix = `t${randomUUID().slice(0, 8)}`;
  const all: ReplicaProcess[] = [];
  let n = 0;
  return {
    platform,
    redis,
    proxy,
    prefix,
    all,
    start: (extra = {}) => {
      const replica = new ReplicaProcess({
        token: platform.token,
        apiUrl: proxy.apiUrl,
        redisUrl: redis.url,
        id: `r${n++}`,
        prefix,
        extra: { ...options.extra, ...extra },
        ...(options.onLine ? { onLine: options.onLine } : {}),
      });
      all.push(replica);
      return replica;
    },
    report: () => all.map((r) => r.report()).join('\n'),
    close: async () => {
      for (const r of all) await r.signal('SIGKILL').catch(() => {});
      await proxy.close();
      await platform.close();
      await redis.close();
    },
  };
}
