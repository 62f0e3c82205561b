import { RestClient, type RestClientOptions } from '@boardbot/rest';
import type { LoopbackServer } from '@boardbot/test-support';
import { onTestFinished } from 'vitest';

/**
 * Back-offs of a millisecond or so: a test of retries waits for the retry it means, not for the
 * production back-off of 300 ms and more. A test of the back-off itself passes its own.
 */
const QUICK_BACKOFF = { retryBaseMs: 1, retryMaxMs: 5 } as const satisfies RestClientOptions;

/**
 * A {@link RestClient} that talks to `server`, closed when the calling test finishes (pass or fail).
 * Call it inside a test.
 * @param server - what the client talks to: a loopback server, or anything with the app API's base URL
 * @param options - the test's client options; they win over the base URL and the quick back-off
 */
export function clientFor(server: Pick<LoopbackServer, 'baseUrl'>, options: RestClientOptions = {}): RestClient {
  const client = new RestClient({ baseUrl: server.baseUrl, ...QUICK_BACKOFF, ...options });
  onTestFinished(() => client.close());
  return client;
}
