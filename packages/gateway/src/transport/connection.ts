import type { EventSourceFetchInit, FetchLikeResponse } from 'eventsource';
import { createParser, type EventSourceParser, type ParseError } from 'eventsource-parser';
import {
  GatewayContentTypeError,
  type GatewayError,
  GatewayFrameTooLargeError,
  GatewayKeepAliveTimeoutError,
  GatewayNetworkError,
  GatewayStreamEndedError,
} from '../errors.js';
import { KeepAliveWatchdog, type WatchdogClock } from '../watchdog/keep-alive-watchdog.js';
import type { GatewayBodyReader, GatewayFetch, GatewayFetchResponse } from './fetch-types.js';
import { httpFailure } from './http-failure.js';
import { TappedEventSource } from './tapped-event-source.js';
import { TrailingCrResolver } from './trailing-cr-resolver.js';

/** What one connection needs from the client. */
export interface ConnectionConfig {
  url: string;
  token: string;
  fetch: GatewayFetch;
  /** Sent as `Last-Event-ID` when defined. */
  lastEventId: string | undefined;
  keepAliveTimeoutMs: number;
  maxFrameBytes: number;
  clock: WatchdogClock;
}

/** How one connection reports back, in stream order. */
export interface ConnectionHandlers {
  open(): void;
  frame(name: string, data: string, id: string): void;
  /** A valid `retry:` field, reported as its chunk is read (before that chunk's frames). */
  retry(ms: number): void;
  /** Called exactly once, unless `stop()` ended the connection first. */
  end(reason: GatewayError): void;
  /** A promise while the consumer cannot take more events: the socket is not read until it settles. */
  gate(): Promise<void> | undefined;
}

/**
 * One attempt at the stream: an `EventSource` that never reconnects by itself (the client owns every
 * reconnect, so there is one back-off policy), a fetch that adds the bearer token and `Last-Event-ID`,
 * and an observed body that feeds the keep-alive watchdog, reads `retry:`, bounds frames, and stops
 * reading while the consumer is behind.
 *
 * The `eventsource` package parses the stream with `eventsource-parser` and keeps what the client
 * needs to itself: it applies `retry:` to a reconnect timer the client does not use, and its buffer of
 * an unfinished event grows without bound. So the observed bytes also go through a second parser of
 * the same package (one copy: the gateway's version range lies within `eventsource`'s), which reports
 * `retry:` and measures what the first one holds: an unfinished line and the event's data so far, in
 * bytes. Comments are never held.
 */
export class GatewayConnection {
  readonly #config: ConnectionConfig;
  readonly #handlers: ConnectionHandlers;
  readonly #watchdog: KeepAliveWatchdog;
  readonly #crs = new TrailingCrResolver();
  readonly #parser: EventSourceParser;
  #es: TappedEventSource | undefined;
  #done = false;
  // Settles when the connection ends: a read waiting on the consumer's gate stops waiting then.
  #ended!: () => void;
  readonly #endedPromise = new Promise<void>((resolve) => {
    this.#ended = resolve;
  });
  #failure: GatewayError | undefined;
  #frameTooLarge: GatewayFrameTooLargeError | undefined;
  #inFlight = new Set<Promise<unknown>>();

  /**
   * @param config - Where and how to connect.
   * @param handlers - Receives the connection's events.
   */
  constructor(config: ConnectionConfig, handlers: ConnectionHandlers) {
    this.#config = config;
    this.#handlers = handlers;
    this.#watchdog = new KeepAliveWatchdog(config.keepAliveTimeoutMs, config.clock, () => {
      this.#end(new GatewayKeepAliveTimeoutError(config.keepAliveTimeoutMs), true);
    });
    this.#parser = createParser({
      // Keep-alive comments are parsed and dropped, never held, so an idle stream that lives for weeks
      // never comes near the bound.
      maxBufferSize: config.maxFrameBytes,
      onRetry: (ms) => this.#handlers.retry(ms),
      onError: (error) => this.#onParseError(error),
    });
  }

  /** Opens the stream. The watchdog also covers a server that accepts the socket but never answers. */
  start(): void {
    this.#watchdog.start();
    this.#es = new TappedEventSource(
      this.#config.url,
      { fetch: this.#fetch },
      {
        open: () => {
          if (!this.#done) this.#handlers.open();
        },
        frame: (name, data, id) => {
          if (!this.#done) this.#handlers.frame(name, data, id);
        },
        error: (message) => this.#onError(message),
      },
    );
  }

  /**
   * Ends the connection without reporting it (the client is closing).
   *
   * @returns Resolves once the request and the body read have settled, so no socket is left.
   */
  async stop(): Promise<void> {
    this.#done = true;
    this.#ended();
    this.#watchdog.stop();
    this.#es?.close();
    await Promise.allSettled([...this.#inFlight]);
  }

  /** Remembers a pending request or read until it settles, so `stop()` can wait for it. */
  #track<T>(promise: Promise<T>): Promise<T> {
    this.#inFlight.add(promise);
    const forget = () => this.#inFlight.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  #onError(message: string | undefined): void {
    const reason =
      this.#failure ??
      (message ? new GatewayNetworkError(this.#config.url, message) : new GatewayStreamEndedError(this.#config.url));
    // The package sets its own reconnect timer right after this event; closing in a microtask
    // clears that timer, so no timer outlives the connection.
    this.#end(reason, false);
  }

  #end(reason: GatewayError, closeNow: boolean): void {
    if (this.#done) return;
    this.#done = true;
    this.#ended();
    this.#watchdog.stop();
    const es = this.#es;
    if (closeNow) es?.close();
    else queueMicrotask(() => es?.close());
    this.#handlers.end(reason);
  }

  readonly #fetch = (url: string | URL, init: EventSourceFetchInit): Promise<FetchLikeResponse> =>
    this.#track(this.#open(String(url), init.signal as AbortSignal));

  async #open(url: string, signal: AbortSignal): Promise<FetchLikeResponse> {
    const headers: Record<string, string> = {
      Accept: 'text/event-stream',
      'Cache-Control': 'no-cache',
      Authorization: `Bearer ${this.#config.token}`,
    };
    // CONTRACT: resume replays every retained event with id > Last-Event-ID.
    if (this.#config.lastEventId !== undefined) headers['Last-Event-ID'] = this.#config.lastEventId;
    let response: GatewayFetchResponse;
    try {
      response = await this.#config.fetch(url, { method: 'GET', headers, signal });
    } catch (err) {
      if (!signal.aborted) this.#failure ??= new GatewayNetworkError(url, err);
      throw err;
    }
    this.#watchdog.touch();
    const base = { status: response.status, url: response.url, redirected: response.redirected };
    if (response.status !== 200) {
      this.#failure ??= await httpFailure(response, url);
      return { ...base, headers: response.headers, body: null };
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (!contentType.startsWith('text/event-stream')) {
      this.#failure ??= new GatewayContentTypeError(url, contentType);
      await response.body?.getReader().cancel();
      return { ...base, headers: response.headers, body: null };
    }
    const body = response.body;
    if (!body) {
      this.#failure ??= new GatewayNetworkError(url, 'the answer had no body');
      return { ...base, headers: response.headers, body: null };
    }
    return { ...base, headers: response.headers, body: { getReader: () => this.#observe(body.getReader()) } };
  }

  #observe(reader: GatewayBodyReader): GatewayBodyReader {
    return {
      read: () => this.#track(this.#read(reader)),
      cancel: (reason) => reader.cancel(reason),
    };
  }

  async #read(reader: GatewayBodyReader): Promise<Awaited<ReturnType<GatewayBodyReader['read']>>> {
    const wait = this.#handlers.gate();
    if (wait) {
      // The consumer, not the network, is slow: silence while waiting is not a dead socket.
      this.#watchdog.stop();
      await Promise.race([wait, this.#endedPromise]);
      if (!this.#done) this.#watchdog.start();
    }
    if (this.#done) {
      await reader.cancel().catch(() => {});
      return { done: true };
    }
    // Found while observing the last chunk, which still went to `eventsource`, so the events it
    // completed are delivered before the connection is cut.
    const tooLarge = this.#frameTooLarge;
    if (tooLarge) {
      this.#failure ??= tooLarge;
      await reader.cancel(tooLarge).catch(() => {});
      throw tooLarge;
    }
    let result: Awaited<ReturnType<GatewayBodyReader['read']>>;
    try {
      result = await reader.read();
    } catch (err) {
      if (!this.#done) this.#failure ??= new GatewayNetworkError(this.#config.url, err);
      throw err;
    }
    if (result.done) return result;
    const value = this.#crs.resolve(result.value);
    this.#observeChunk(value);
    return { done: false, value };
  }

  #observeChunk(chunk: Uint8Array): void {
    // Any byte, a keep-alive comment or a piece of an event, shows the socket is alive.
    this.#watchdog.touch();
    // Read as latin1, one character per byte: the bound then counts bytes, and decoding is a copy.
    // Every SSE delimiter (LF, CR, `:`) and every `retry:` digit is ASCII, which UTF-8 never uses
    // inside a multibyte character, so lines, fields and comments come out as `eventsource` sees them
    // (a byte-order mark too, which the parser drops as three latin1 characters when it comes whole
    // in the first chunk); only event data is garbled, and this parser's events are dropped.
    this.#parser.feed(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1'));
  }

  #onParseError(error: ParseError): void {
    // `retry: abc` and unknown fields are ignored, as the SSE rules say; only the bound matters here.
    if (error.type === 'max-buffer-size-exceeded') {
      this.#frameTooLarge ??= new GatewayFrameTooLargeError(this.#config.maxFrameBytes);
    }
  }
}
