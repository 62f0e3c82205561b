import { vi } from 'vitest';

/**
 * Retries `assertion` until it passes, for up to 10 s. `vi.waitFor` gives up after 1 s by default,
 * which a reconnect with back-off (or an emulator restart) can exceed on a loaded two-core machine:
 * the bound is there to end a broken test, not to time the behaviour.
 */
export function eventually<T>(assertion: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(assertion, { timeout: 10_000, interval: 10 });
}
