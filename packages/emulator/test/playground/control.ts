import { fetch } from 'undici';

/** A tiny client of the control API for the browser tests: the other side of what the page does. */
export interface Control {
  get<T>(path: string): Promise<T>;
  send<T>(method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T>;
}

/**
 * Talks to `controlUrl` with the admin key; any non-2xx answer throws with its body.
 *
 * @param controlUrl - `{origin}/_emulator/v1`.
 * @param adminKey - the emulator's admin key.
 */
export function controlClient(controlUrl: string, adminKey: string): Control {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { authorization: `Bearer ${adminKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${controlUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
  return { get: (path) => call('GET', path), send: (method, path, body) => call(method, path, body) };
}
