import { describe, expect, it } from 'vitest';
import { TOKEN_DIGEST_GENERATION, TokenDigests } from '../src/auth/token-digests.js';
import { hashToken } from '../src/auth/tokens.js';

describe('TokenDigests', () => {
  it('gives the SHA-256 of a token, remembered or not', () => {
    const digests = new TokenDigests();
    expect(digests.digestOf('dev-token')).toBe(hashToken('dev-token'));
    digests.remember('dev-token', hashToken('dev-token'));
    expect(digests.digestOf('dev-token')).toBe(hashToken('dev-token'));
  });

  it('remembers at most two generations: the oldest tokens are hashed again, not kept', () => {
    const digests = new TokenDigests();
    // A wrong digest stands for "remembered", so a forgotten token shows as its real digest.
    const tokens = Array.from({ length: 2 * TOKEN_DIGEST_GENERATION + 1 }, (_, i) => `t${i}`);
    for (const t of tokens) digests.remember(t, `remembered ${t}`);
    expect(digests.digestOf('t0')).toBe(hashToken('t0'));
    expect(digests.digestOf(`t${TOKEN_DIGEST_GENERATION}`)).toBe(`remembered t${TOKEN_DIGEST_GENERATION}`);
    expect(digests.digestOf(`t${2 * TOKEN_DIGEST_GENERATION}`)).toBe(`remembered t${2 * TOKEN_DIGEST_GENERATION}`);
  });
});
