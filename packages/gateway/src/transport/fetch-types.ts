/** What the client passes to the injected fetch: a plain GET with its headers and abort signal. */
export interface GatewayFetchInit {
  method: 'GET';
  headers: Record<string, string>;
  signal: AbortSignal;
}

/** The part of a web `ReadableStreamDefaultReader` the client uses. */
export interface GatewayBodyReader {
  read(): Promise<{ done: false; value: Uint8Array } | { done: true; value?: undefined }>;
  cancel(reason?: unknown): Promise<void>;
}

/** The part of a fetch `Response` the client uses; undici's and Node's global `Response` fit. */
export interface GatewayFetchResponse {
  readonly status: number;
  readonly url: string;
  readonly redirected: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: { getReader(): GatewayBodyReader } | null;
}

/**
 * A fetch the gateway can open its stream with: `nodeHttpFetch` (the default), undici's or Node's
 * global `fetch`, or a wrapper of any (a proxy dispatcher, a test double).
 */
export type GatewayFetch = (url: string, init: GatewayFetchInit) => Promise<GatewayFetchResponse>;
