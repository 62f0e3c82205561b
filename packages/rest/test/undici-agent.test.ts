import { createRequire } from 'node:module';
import { Agent as IndexAgent } from 'undici';
import { expect, it } from 'vitest';
import { Agent } from '../src/request/undici-agent.js';

// The client loads undici's `Agent` from an internal path (see src/request/undici-agent.ts); this
// fails on the undici release that moves or replaces it, where the client would fall back to the
// whole index and its memory.
it('loads undici’s own Agent from the internal file, not through the index', () => {
  const file = createRequire(import.meta.url)('undici/lib/dispatcher/agent.js');
  expect(file).toBe(IndexAgent);
  expect(Agent).toBe(file);
});
