import type { RestClient, RestClientOptions } from '@boardbot/rest';
import type { LoopbackServer, Script } from '@boardbot/test-support';
import { clientFor } from './client-for.js';
import { servedForTest } from './served-for-test.js';

/** A test's scripted server and the client that talks to it, both closed when the test finishes. */
export interface ScriptedClient {
  /** Answers with the test's script and records what it received. */
  server: LoopbackServer;
  /** Talks to `server`, with the file's defaults and the test's options. */
  client: RestClient;
}

/** Starts a {@link ScriptedClient}: `script` answers, `options` add to the file's defaults. */
export type StartScriptedClient = (script: Script, options?: RestClientOptions) => Promise<ScriptedClient>;

/**
 * What a test file needs to start each of its tests: a fresh loopback server answering with the
 * test's script and a {@link RestClient} on it made with the file's `defaults` (its token, say) and
 * the test's own options. Every call makes a new pair, closed when its test finishes (the client
 * first: vitest runs a test's `onTestFinished` callbacks last registered first), so no test sees
 * another's server, client or requests; the defaults are copied once and never change.
 * @param defaults - the options every client of the file gets; a test's options win
 * @example
 * const start = scriptedClients({ token: TOKEN });
 * it('retries a 503', async () => {
 *   const { server, client } = await start((_req, res, n) => ..., { retries: 1 });
 * });
 */
export function scriptedClients(defaults: RestClientOptions = {}): StartScriptedClient {
  const fileDefaults = Object.freeze({ ...defaults });
  return async (script, options = {}) => {
    const server = await servedForTest(script);
    return { server, client: clientFor(server, { ...fileDefaults, ...options }) };
  };
}
