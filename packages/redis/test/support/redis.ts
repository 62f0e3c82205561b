import { type RedisServer, startRedisServer } from '@boardbot/test-support';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';

/** A real redis-server for the file (started before its tests, stopped after), and a connection to it. */
export interface RedisFixture {
  server: RedisServer;
  client: Redis;
}

/**
 * Starts a real `redis-server` for the test file and connects to it; every test gets it through the
 * returned getter. Each test uses keys of its own (a fresh app id), so tests stand alone.
 */
export function useRedis(): () => RedisFixture {
  let fixture: RedisFixture | undefined;
  beforeAll(async () => {
    const server = await startRedisServer();
    const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    // A test that stops the server makes this connection fail until the file ends: expected, not news.
    client.on('error', () => {});
    await client.connect();
    fixture = { server, client };
  }, 30_000);
  afterAll(async () => {
    fixture?.client.disconnect();
    await fixture?.server.close();
  });
  return () => {
    if (!fixture) throw new Error('redis-server did not start');
    return fixture;
  };
}
