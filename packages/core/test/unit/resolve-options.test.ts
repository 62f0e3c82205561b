import { InvalidConfigError } from '@boardbot/core';
import { resolveBotOptions } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

const base = { token: 't0ken', handlers: [] };

describe('resolveBotOptions', () => {
  it('fills in from the environment it is given, and the options given win over it', () => {
    const env = {
      BOARDBOT_API_URL: 'http://api.test/api/v1',
      BOARDBOT_STATE_DIR: '/var/bot',
      BOARDBOT_HEALTH_PORT: '9464',
      BOARDBOT_REDIS_URL: 'redis://cache:6379',
    };
    const resolved = resolveBotOptions(base, env);
    expect(resolved).toMatchObject({
      apiUrl: 'http://api.test/api/v1',
      stateDir: '/var/bot',
      health: { port: 9464 },
      redisUrl: 'redis://cache:6379',
      concurrency: 16,
    });
    expect(resolveBotOptions({ ...base, apiUrl: 'http://mine/api/v1', stateDir: 'here' }, env)).toMatchObject({
      apiUrl: 'http://mine/api/v1',
      stateDir: 'here',
    });
  });

  it('reads nothing from process.env: an empty environment gives the defaults', () => {
    const saved = process.env.BOARDBOT_API_URL;
    process.env.BOARDBOT_API_URL = 'http://from-process/api/v1';
    try {
      const resolved = resolveBotOptions(base, {});
      expect(resolved.apiUrl).toBe('http://127.0.0.1:8787/api/v1');
      expect(resolved.redisUrl).toBeUndefined();
      expect(resolved.health).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.BOARDBOT_API_URL;
      else process.env.BOARDBOT_API_URL = saved;
    }
  });

  it('refuses what cannot work, naming the variable or the option', () => {
    expect(() => resolveBotOptions(base, { BOARDBOT_HEALTH_PORT: 'http' })).toThrow(/BOARDBOT_HEALTH_PORT/);
    expect(() => resolveBotOptions({ ...base, token: ' ' }, {})).toThrow(/BOARDBOT_TOKEN/);
    expect(() => resolveBotOptions({ ...base, concurrency: 0 }, {})).toThrow(InvalidConfigError);
    expect(() => resolveBotOptions({ ...base, orderBy: 'x' as never }, {})).toThrow(/orderBy/);
    expect(() => resolveBotOptions({ ...base, refusalIntervalMs: -1 }, {})).toThrow(/refusalIntervalMs/);
  });

  it('takes an empty BOARDBOT_REDIS_URL as unset (a single process)', () => {
    expect(resolveBotOptions(base, { BOARDBOT_REDIS_URL: '' }).redisUrl).toBeUndefined();
  });
});
