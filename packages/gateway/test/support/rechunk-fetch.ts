import type { GatewayBodyReader, GatewayFetch } from '@boardbot/gateway';
import { fetch } from 'undici';

/**
 * A real fetch (undici, over loopback) whose response body is handed to the client in pieces of at
 * most `size` bytes, so every boundary case of the parser (a multibyte character, a `retry:` field,
 * a CR LF pair split across chunks) happens for certain rather than by luck of TCP.
 *
 * @param size - Largest piece, in bytes.
 * @param beforePiece - Called as each piece is handed over (a test's clock can move on there).
 */
export function rechunkingFetch(size: number, beforePiece?: () => void): GatewayFetch {
  return async (url, init) => {
    const response = await fetch(url, init);
    const body = response.body;
    if (!body) return response;
    const source = body.getReader();
    let rest = new Uint8Array(0);
    const reader: GatewayBodyReader = {
      async read() {
        if (rest.length === 0) {
          const next = await source.read();
          if (next.done) return { done: true };
          rest = next.value;
        }
        const value = rest.subarray(0, size);
        rest = rest.subarray(size);
        beforePiece?.();
        return { done: false, value };
      },
      cancel: (reason) => source.cancel(reason),
    };
    return {
      status: response.status,
      url: response.url,
      redirected: response.redirected,
      headers: response.headers,
      body: { getReader: () => reader },
    };
  };
}
