import { describe, expect, it } from 'vitest';
import { secretMatcher } from '../src/auth/tokens.js';

describe('secretMatcher', () => {
  const isKey = secretMatcher('bench-admin-key');

  it('accepts the secret, every time it is asked', () => {
    expect(isKey('bench-admin-key')).toBe(true);
    expect(isKey('bench-admin-key')).toBe(true);
  });

  it('refuses a prefix, an extension, another case and the empty string', () => {
    for (const given of ['bench-admin-ke', 'bench-admin-key ', 'BENCH-ADMIN-KEY', '']) expect(isKey(given)).toBe(false);
  });
});
