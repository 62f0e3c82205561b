import { AppTokenMissingError, InvalidConfigError } from '@boardbot/core';
import { checkAppToken, resolveAppToken } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

const TOKEN = 'bb_live_0123456789abcdef0123456789abcdef';

describe("a hosted app's token", () => {
  it('comes from an environment variable by name, or a resolver', async () => {
    expect(await resolveAppToken('team-a', { env: 'TEAM_A_TOKEN' }, { TEAM_A_TOKEN: ` ${TOKEN}\n` })).toBe(TOKEN);
    expect(await resolveAppToken('team-b', async (id) => `${id}:${TOKEN}`)).toBe(`team-b:${TOKEN}`);
  });

  it('is refused when written in the configuration, without echoing it', () => {
    for (const given of [TOKEN, { env: TOKEN.replace(/_/g, '-') }, { token: TOKEN }]) {
      const attempt = () => checkAppToken('team-a', given as never);
      expect(attempt).toThrow(InvalidConfigError);
      expect(attempt).not.toThrow(TOKEN);
    }
    expect(() => checkAppToken('team-a', { env: 'TEAM_A_TOKEN' })).not.toThrow();
  });

  it('is missing when its variable is unset or empty, or its resolver fails or gives none: the message names no value', async () => {
    const leaky = new Error(`lookup failed for ${TOKEN}`);
    const cases = [
      resolveAppToken('a', { env: 'TEAM_A_TOKEN' }, {}),
      resolveAppToken('a', { env: 'TEAM_A_TOKEN' }, { TEAM_A_TOKEN: '  ' }),
      resolveAppToken('a', () => Promise.reject(leaky)),
      resolveAppToken('a', () => ''),
    ];
    for (const attempt of cases) {
      const error = await attempt.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppTokenMissingError);
      expect((error as Error).message).not.toContain(TOKEN);
    }
  });
});
