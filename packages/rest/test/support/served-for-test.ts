import { type LoopbackServer, type Script, startLoopbackServer } from '@boardbot/test-support';
import { onTestFinished } from 'vitest';

/**
 * Starts a loopback server answering with `script`, closed when the calling test finishes (pass or
 * fail), so each test owns its server and no file keeps one in a variable between tests. Call it
 * inside a test.
 * @param script - answers each request
 */
export async function servedForTest(script: Script): Promise<LoopbackServer> {
  const server = await startLoopbackServer(script);
  onTestFinished(() => server.close());
  return server;
}
