import { ReplyError } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { redisErrorCode } from '../src/connection.js';
import { ensureGroup } from '../src/consume/streams.js';
import { READ } from '../src/scripts/feed-scripts.js';
import { useRedis } from './support/redis.js';

const redis = useRedis();

describe('redisErrorCode', () => {
  it('reads the code of a reply error, raised by a command or by a script, from a real redis-server', async () => {
    const { client } = redis();
    const stream = `t:codes:${Date.now()}`;
    await ensureGroup(client, stream);
    // A second creation is refused with BUSYGROUP, which ensureGroup takes as done.
    await expect(ensureGroup(client, stream)).resolves.toBeUndefined();
    const busy = await client.xgroup('CREATE', stream, 'boardbot', '$').catch((error: unknown) => error);
    expect(redisErrorCode(busy)).toBe('BUSYGROUP');
    // XREADGROUP inside the read script, on a stream that has no group (Redis lost it).
    await client.set(`${stream}:lease`, 'held');
    const lost = await READ.run(client, [`${stream}:lease`, `${stream}:none`], ['held', 'boardbot', 'me', 1]).catch(
      (error: unknown) => error,
    );
    expect(lost).toBeInstanceOf(ReplyError);
    expect(redisErrorCode(lost)).toBe('NOGROUP');
  });

  it('is undefined for an error that is no Redis reply, whatever its message says', () => {
    expect(redisErrorCode(new Error('NOGROUP looks like one'))).toBeUndefined();
    expect(
      redisErrorCode(new ReplyError('ERR Error running script (call to f_1): @user_script:1: -NOGROUP No such key')),
    ).toBe('NOGROUP');
    expect(redisErrorCode(new ReplyError('NOSCRIPT No matching script'))).toBe('NOSCRIPT');
  });
});
