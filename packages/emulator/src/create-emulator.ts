import type { FastifyInstance } from 'fastify';
import { checkExposure } from './auth/exposure.js';
import { randomToken } from './auth/tokens.js';
import { EmulatorOptionsError, EmulatorStateError } from './errors.js';
import { trackConnections } from './http/connections.js';
import { allowedHostNames, isLoopbackAddress } from './http/host-check.js';
import { resolveLogger } from './logging.js';
import { type EmulatorOptions, type ResolvedEmulatorOptions, resolveOptions } from './options.js';
import { watchInteractionExpiry } from './platform/expiry-watcher.js';
import { Platform } from './platform/platform.js';
import { loadSeed } from './platform/seed.js';
import { buildServer } from './server.js';
import { Checkpointer } from './store/checkpointer.js';
import { openStore } from './store/store.js';
import { type EmulatorUrls, emulatorUrls } from './urls.js';

/** Where `listen()` binds when no host is given. */
const DEFAULT_LISTEN_HOST = '127.0.0.1';

/** How long `close()` lets in-flight requests finish and clients close, before it cuts the remaining connections. */
const CLOSE_GRACE_MS = 2000;

/** Where to listen. */
export interface ListenOptions {
  /**
   * Interface to bind. Beyond loopback, the admin key must have at least 16 characters, and every
   * app's token must be strong: not the default `dev-token`, and judged strong when it was made
   * (`BOARDBOT_EMULATOR_EXPOSED_DEFAULTS`, saying how to rotate the others); a weak token chosen
   * while listening there is refused too.
   * @defaultValue `'127.0.0.1'`
   */
  host?: string;
  /** Port; 0 picks a free one. @defaultValue 8787 */
  port?: number;
}

/** A running emulator: the platform of SPEC.md and CONTRACT.md as a real server. */
export interface Emulator {
  /** The Fastify instance (use `inject` in tests that need no socket). */
  readonly app: FastifyInstance;
  /** The control API's admin key. */
  readonly adminKey: string;
  /** The seeded `dev-bot` app's token. */
  readonly devToken: string;
  /** The URLs, once `listen()` resolved. */
  readonly urls: EmulatorUrls | undefined;
  /** The platform state and write path (for the control API and white-box tests). */
  readonly platform: Platform;
  /** Starts listening; resolves with the URLs. */
  listen(options?: ListenOptions): Promise<EmulatorUrls>;
  /** Ends the gateway and activity streams, waits for in-flight requests, closes the database. */
  close(): Promise<void>;
}

// Limits that may be 0: a retention window of 0 keeps events by count alone (tests that need a gap).
const MAY_BE_ZERO = new Set(['limits.retainedEventsMs']);

function checkOptions(o: ResolvedEmulatorOptions): void {
  const positive: [string, number][] = [
    ['rateLimit.requests', o.rateLimit.requests],
    ['rateLimit.windowMs', o.rateLimit.windowMs],
    ['keepAliveMs', o.keepAliveMs],
    ...Object.entries(o.limits).map(([k, v]): [string, number] => [`limits.${k}`, v]),
  ];
  for (const [name, value] of positive) {
    const zeroAllowed = MAY_BE_ZERO.has(name);
    if (Number.isFinite(value) && (zeroAllowed ? value >= 0 : value > 0)) continue;
    const expected = zeroAllowed ? 'a number of 0 or more' : 'a positive number';
    throw new EmulatorOptionsError(`Option ${name} must be ${expected}, got ${value}`);
  }
  if (o.devToken.length === 0) throw new EmulatorOptionsError('Option devToken must not be empty');
  if (o.adminKey !== undefined && o.adminKey.length === 0) {
    throw new EmulatorOptionsError('Option adminKey must not be empty (omit it to get a random key)');
  }
  if (o.limits.headersTimeoutMs > o.limits.requestTimeoutMs) {
    throw new EmulatorOptionsError(
      `Option limits.headersTimeoutMs (${o.limits.headersTimeoutMs}) must not exceed limits.requestTimeoutMs (${o.limits.requestTimeoutMs})`,
    );
  }
}

/**
 * Creates an emulator: opens (and migrates) its database, loads the default seed unless `seed` is
 * false, and builds the server. Call `listen()` to serve over HTTP, or use `app.inject()`. A file
 * database is held by this emulator until `close()` (or the process's end, however it ends).
 *
 * @throws EmulatorDatabaseInUseError when another emulator holds the database file.
 * @example
 * const emu = await createEmulator({ db: ':memory:', logger: false });
 * const { apiUrl } = await emu.listen({ port: 0 });
 * // BOARDBOT_TOKEN=dev-token, base URL apiUrl
 * await emu.close();
 */
export async function createEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const o = resolveOptions(options);
  checkOptions(o);
  const logger = resolveLogger(o.logger).child({ name: 'boardbot-emulator' });
  const adminKey = o.adminKey ?? randomToken(24);
  const store = openStore(o.db);
  const checkpointer = o.db === ':memory:' ? undefined : new Checkpointer(o.db, logger);
  const platform = new Platform(store, o.now, o.limits, logger);
  let closing: Promise<void> | undefined;
  let urls: EmulatorUrls | undefined;
  // Until it listens, the emulator is as reachable as its default address (inject only).
  let hosts = allowedHostNames(DEFAULT_LISTEN_HOST, o.allowedHosts);
  try {
    if (o.seed) loadSeed(platform, o.devToken);
    platform.flushNow();
  } catch (err) {
    await checkpointer?.close();
    store.close();
    throw err;
  }
  const { app, limiter } = buildServer({
    platform,
    options: o,
    adminKey,
    devToken: o.devToken,
    logger,
    isClosing: () => closing !== undefined,
    urls: () => urls,
    allowedHosts: () => hosts,
  });
  const connections = trackConnections(app.server);
  platform.onReset(() => limiter.clear());
  platform.onDispose(watchInteractionExpiry(platform));
  await app.ready();

  return {
    app,
    adminKey,
    devToken: o.devToken,
    platform,
    get urls() {
      return urls;
    },
    async listen(listen = {}) {
      if (closing) throw new EmulatorStateError('The emulator is closed: create a new one');
      if (urls) throw new EmulatorStateError('The emulator is already listening');
      const host = listen.host ?? DEFAULT_LISTEN_HOST;
      checkExposure(host, { adminKey, devToken: o.seed ? o.devToken : undefined, platform });
      hosts = allowedHostNames(host, o.allowedHosts);
      // Before binding: from the first request on, a weak token chosen through the control API is refused.
      platform.exposedOn = isLoopbackAddress(host) ? undefined : host;
      try {
        await app.listen({ host, port: listen.port ?? 8787 });
      } catch (error) {
        platform.exposedOn = undefined;
        throw error;
      }
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : listen.port;
      const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
      urls = emulatorUrls(`http://${shown}:${port}`, adminKey);
      // A second emulator on this database file names this one by its URL (never the admin key).
      store.lock?.setUrl(urls.url);
      return urls;
    },
    close() {
      closing ??= (async () => {
        // Streams and long waits first: they never end by themselves, and Fastify waits for open
        // requests. Then in-flight requests finish, and their last writes are committed.
        platform.gateway.endAll();
        platform.activity.endAll();
        platform.stopWaiting();
        // Each connection is ended once its answer is sent, and close() waits for its client to
        // close it too: a keep-alive client then never sends its next request (to a new emulator on
        // this port, say) down a socket of this one. Whatever is still open after the grace period
        // is cut (a client that aborted a streaming request can leave a keep-alive socket that
        // Fastify counts as busy, nodejs/undici#5845).
        await connections.endAll(CLOSE_GRACE_MS);
        await app.close();
        platform.flushNow();
        platform.dispose();
        await checkpointer?.close();
        store.close();
      })();
      return closing;
    },
  };
}
