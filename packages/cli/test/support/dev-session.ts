import { type DevSession, runDev } from '@boardbot/cli/internal';
import { onTestFinished } from 'vitest';
import type { TestIo } from './test-io.js';

/**
 * `boardbot dev` (its emulator, builds and bot) for the running test: the session is stopped when the
 * test finishes, pass or fail. Finish hooks run last-registered first, so it stops before a
 * `fixtureProjectForTest` project made earlier in the test is removed.
 *
 * @param flags - the command's flags
 * @param io - where it prints, and its signals
 */
export async function runDevForTest(flags: Parameters<typeof runDev>[0], io: TestIo): Promise<DevSession> {
  const session = await runDev(flags, io);
  onTestFinished(() => session.stop());
  return session;
}
