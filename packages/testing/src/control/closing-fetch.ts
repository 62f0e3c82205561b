import { CONTROL_PATH } from '@boardbot/emulator/control';
import { PlatformClosedError } from '../errors.js';

/**
 * The `fetch` of the harness's control client: the global one until the platform closes, then a
 * refusal of every call with {@link PlatformClosedError} (a person who talks after `close()` learns
 * why nothing happens, instead of reading a connection error).
 */
export class ClosingFetch {
  #closed = false;

  /** The `fetch` to give the control client. */
  readonly fetch: typeof fetch = (input, init) => {
    if (!this.#closed) return globalThis.fetch(input, init);
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname.replace(CONTROL_PATH, '');
    return Promise.reject(new PlatformClosedError(`${init?.method ?? 'GET'} ${path}`));
  };

  /** Refuses every later call. */
  async close(): Promise<void> {
    this.#closed = true;
  }
}
