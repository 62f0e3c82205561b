import { readFileSync } from 'node:fs';
import { GATEWAY_ERROR_CODES } from '@boardbot/gateway';
import { describe, expect, it } from 'vitest';

describe('error codes', () => {
  it('are each documented in the package README', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const missing = GATEWAY_ERROR_CODES.filter((code) => !readme.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });
});
