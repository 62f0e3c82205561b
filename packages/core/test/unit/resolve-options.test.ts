import { InvalidConfigError, ScaleUnavailableError } from '@boardbot/core';
import { checkBotOptions, resolveBotOptions } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

const base = { token: 't0ken', handlers: [] };

describe('resolveBotOptions', () => {
  it('fills in from the environment it is given, and the options given win over it', () => {
    const env = {
      BOARDBOT_API_URL: 'http://api.test/api/v1',
      BOARDBOT_STATE_DIR: '/var/bot',
      BOARDBOT_HEALTH_PORT: '9464',
    };
    const resolved = resolveBotOptions(base, env);
    expect(resolved).toMatchObject({
      apiUrl: 'http://api.test/api/v1',
      stateDir: '/var/bot',
      health: { port: 9464 },
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
      expect(resolved.health).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.BOARDBOT_API_URL;
      else process.env.BOARDBOT_API_URL = saved;
    }
  });

  it('refuses what cannot work, naming the variable or the option', () => {
    expect(() => resolveBotOptions(base, { BOARDBOT_HEALTH_PORT: 'http' })).toThrow(/BOARDBOT_HEALTH_PORT/);
    expect(() => resolveBotOptions({ ...base, token: ' ' }, {})).toThrow(/BOARDBOT_TOKEN/);
    expect(() => checkBotOptions({ ...base, concurrency: 0 })).toThrow(InvalidConfigError);
    expect(() => checkBotOptions({ ...base, orderBy: 'x' as never })).toThrow(/orderBy/);
    expect(() => checkBotOptions({ ...base, refusalIntervalMs: -1 })).toThrow(/refusalIntervalMs/);
  });

  it('refuses a BOARDBOT_REDIS_URL given no adapter (core loads none), and takes an empty one as unset', () => {
    const env = { BOARDBOT_REDIS_URL: 'redis://cache:6379' };
    expect(() => resolveBotOptions(base, env)).toThrow(ScaleUnavailableError);
    expect(resolveBotOptions({ ...base, scale: false }, env).scale).toBe(false);
    expect(resolveBotOptions(base, { BOARDBOT_REDIS_URL: '' }).scale).toBeUndefined();
  });
});
