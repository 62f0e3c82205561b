import { readFileSync } from 'node:fs';
import { DEFAULT_REDIS_OPTIONS, RedisOptionError, redactRedisUrl, resolveRedisOptions } from '@boardbot/redis';
import { afterEach, describe, expect, it } from 'vitest';

const scaling = readFileSync(new URL('../../../docs/scaling.md', import.meta.url), 'utf8');

/** The `| option | default |` rows of the `redis()` table in docs/scaling.md, backticks dropped. */
function documentedDefaults(): Map<string, string> {
  const section = scaling.split('| option of `redis()` | default | meaning |')[1]?.split('\n\n')[0] ?? '';
  return new Map(
    [...section.matchAll(/^\| `(\w+)` \| ([^|]+) \|/gm)].map((m) => [
      m[1] ?? '',
      (m[2] ?? '').replace(/`/g, '').trim(),
    ]),
  );
}

const saved = process.env.BOARDBOT_REDIS_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.BOARDBOT_REDIS_URL;
  else process.env.BOARDBOT_REDIS_URL = saved;
});

describe('redis() options', () => {
  it('docs/scaling.md gives the defaults resolveRedisOptions fills in', () => {
    delete process.env.BOARDBOT_REDIS_URL;
    const resolved = resolveRedisOptions({});
    const documented = documentedDefaults();
    for (const [name, value] of Object.entries(DEFAULT_REDIS_OPTIONS)) {
      expect(resolved[name as keyof typeof resolved], name).toBe(value);
      if (name === 'url') expect(documented.get(name)).toBe(`BOARDBOT_REDIS_URL, else ${value}`);
      else expect(documented.get(name), name).toBe(String(value));
    }
    expect([...documented.keys()].sort()).toEqual(
      [...Object.keys(DEFAULT_REDIS_OPTIONS), 'replicaId', 'connect'].sort(),
    );
  });

  it('takes the URL from BOARDBOT_REDIS_URL when none is given, and the one given over it', () => {
    process.env.BOARDBOT_REDIS_URL = 'redis://10.0.0.9:6390';
    expect(resolveRedisOptions({}).url).toBe('redis://10.0.0.9:6390');
    expect(resolveRedisOptions({ url: 'rediss://cache:6380' }).url).toBe('rediss://cache:6380');
  });

  it('refuses what cannot work, naming the option', () => {
    expect(() => resolveRedisOptions({ url: 'http://x' })).toThrow(RedisOptionError);
    expect(() => resolveRedisOptions({ partitions: 0 })).toThrow(/partitions/);
    expect(() => resolveRedisOptions({ replicaId: 'a:b' })).toThrow(/replicaId/);
    expect(() => resolveRedisOptions({ deadLetterRetentionMs: 999 })).toThrow(/deadLetterRetentionMs/);
    expect(() => resolveRedisOptions({ maxBacklog: 1 })).toThrow(/maxBacklog/);
  });

  it('shows a URL without its password', () => {
    const shown = redactRedisUrl('redis://user:s3cret@cache:6379/2');
    expect(shown).toBe('redis://cache:6379/2');
    expect(shown).not.toContain('s3cret');
  });
});
