import { healthFromEnv } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

describe('the health endpoint from the environment', () => {
  it('reads BOARDBOT_HEALTH_PORT and BOARDBOT_HEALTH_HOST, and none without a port', () => {
    expect(healthFromEnv({})).toBeUndefined();
    expect(healthFromEnv({ BOARDBOT_HEALTH_PORT: '9464' })).toEqual({ port: 9464 });
    expect(healthFromEnv({ BOARDBOT_HEALTH_PORT: '0', BOARDBOT_HEALTH_HOST: '0.0.0.0' })).toEqual({
      port: 0,
      host: '0.0.0.0',
    });
  });

  it('reads BOARDBOT_HEALTH_ALLOWED_HOSTS as a comma-separated list', () => {
    expect(
      healthFromEnv({ BOARDBOT_HEALTH_PORT: '9464', BOARDBOT_HEALTH_ALLOWED_HOSTS: ' bot, metrics.internal ,' }),
    ).toEqual({ port: 9464, allowedHosts: ['bot', 'metrics.internal'] });
    expect(healthFromEnv({ BOARDBOT_HEALTH_PORT: '9464', BOARDBOT_HEALTH_ALLOWED_HOSTS: '' })).toEqual({ port: 9464 });
  });

  it('refuses a port that is no port number with BOARDBOT_INVALID_CONFIG and what it got', () => {
    expect(() => healthFromEnv({ BOARDBOT_HEALTH_PORT: '70000' })).toThrow(
      expect.objectContaining({ code: 'BOARDBOT_INVALID_CONFIG', message: expect.stringContaining('"70000"') }),
    );
  });
});
