import { readFileSync } from 'node:fs';
import { CORE_ERROR_CODES } from '@boardbot/core';
import { describe, expect, it } from 'vitest';

// That every class carries its code, its name and the root is checked for every package at once, in
// test/errors/error-classes.test.ts.

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('errors', () => {
  it('every code is listed in the README table, and the table lists no other', () => {
    for (const code of CORE_ERROR_CODES) expect(readme).toContain(`| \`${code}\``);
    const listed = [...readme.matchAll(/^\| `(BOARDBOT_[A-Z_]+)`/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...CORE_ERROR_CODES].sort());
  });
});
