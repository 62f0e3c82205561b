import { randomUUID } from 'node:crypto';
import { AnswerRecord, ScheduleClaims } from '@boardbot/core/internal';
import {
  ANSWER_RECORD_CONTRACT,
  COOLDOWN_STORE_CONTRACT,
  SCHEDULE_CLAIMS_CONTRACT,
  SHARED_COOLDOWN_STORE_CONTRACT,
} from '@boardbot/test-support';
import { describe, it } from 'vitest';
import type { Connected } from '../src/connection.js';
import { RedisSessionStore } from '../src/index.js';
import { Keys } from '../src/keys.js';
import { RedisCooldowns } from '../src/limits/cooldowns.js';
import { useRedis } from './support/redis.js';
import { freshPrefix } from './support/replicas.js';

// The store contracts beside sessions (session-store.test.ts) on a real Redis: the memory and file
// stores (core) and PostgreSQL's run the same checks. Redis keeps no PositionStore: its replicas keep
// the resume point in the shared feed.
const fixture = useRedis();

const sessions = () => new RedisSessionStore({ client: () => fixture().client, keyPrefix: freshPrefix() });

describe('schedule claims in RedisSessionStore', () => {
  for (const [check, run] of Object.entries(SCHEDULE_CLAIMS_CONTRACT)) {
    it(check, () => {
      const store = sessions();
      return run((app, instance) => new ScheduleClaims(store, app, instance));
    });
  }
});

describe('answer records and editable links in RedisSessionStore', () => {
  for (const [check, run] of Object.entries(ANSWER_RECORD_CONTRACT)) {
    it(check, () => {
      const store = sessions();
      return run((now) => new AnswerRecord(store, now));
    });
  }
});

describe('RedisCooldowns', () => {
  // The parts of a connected replica the cooldowns use: its connection and its keys.
  const cooldowns = () => {
    const connected = { client: fixture().client, keys: new Keys(freshPrefix(), randomUUID(), 'http://api') };
    return new RedisCooldowns(() => connected as Connected);
  };
  const contract = { ...COOLDOWN_STORE_CONTRACT, ...SHARED_COOLDOWN_STORE_CONTRACT };
  for (const [check, run] of Object.entries(contract)) it(check, () => run(cooldowns()));
});
