import { createRequire } from 'node:module';
import type { Agent as UndiciAgent } from 'undici';

// undici's index loads its whole web stack as it loads (`fetch`, `WebSocket`, `EventSource`, caches,
// mock agents: about 9 MB of a started bot's memory) and has no entry for `Agent` alone. Its package
// has no `exports` map, so the file that defines `Agent` can be required directly. The path is
// internal: the dependency's range stops at the next major, `test/undici-agent.test.ts` fails on a
// release that moves it, and a release that moved it still works here, through the index.
const require = createRequire(import.meta.url);

function load(): typeof UndiciAgent {
  try {
    return require('undici/lib/dispatcher/agent.js');
  } catch {
    return require('undici').Agent;
  }
}

/** undici's `Agent`, loaded without the rest of undici where the installed version allows. */
export const Agent = load();
