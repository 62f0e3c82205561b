import { type Logger, silentLogger } from '@boardbot/protocol';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { requireAdmin } from './auth/admin-auth.js';
import { PlatformError, validationFailed } from './errors.js';
import { installAppApiGate, isAppApiUrl, setRateHeaders } from './http/app-api-gate.js';
import { installErrorHandler, sendPlatformError } from './http/error-handler.js';
import { installJsonParser } from './http/json-parser.js';
import { addMethodNotAllowedRoutes, collectRoutes } from './http/method-not-allowed.js';
import { typeboxValidatorCompiler } from './http/validation.js';
import { InFlightKeys } from './idempotency/in-flight.js';
import { redactUrl, toFastifyLogger } from './logging.js';
import type { ResolvedEmulatorOptions } from './options.js';
import type { Platform } from './platform/platform.js';
import { playgroundRoutes } from './playground.js';
import { FixedWindowLimiter } from './ratelimit/fixed-window.js';
import { appRoutes } from './routes/app.js';
import { boardRoutes } from './routes/boards.js';
import { controlRoutes } from './routes/control/index.js';
import { gatewayRoutes } from './routes/gateway.js';
import { interactionRoutes } from './routes/interactions.js';
import { messageRoutes } from './routes/messages.js';
import { userRoutes } from './routes/users.js';
import type { EmulatorUrls } from './urls.js';

// Request lines are info-level: when the logger drops them anyway, the hook is not installed at all.
function logsInfo(logger: Logger): boolean {
  if (logger === silentLogger) return false;
  const check = (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return typeof check !== 'function' || check.call(logger, 'info');
}

/** What the server is built from. */
export interface ServerDeps {
  platform: Platform;
  options: ResolvedEmulatorOptions;
  adminKey: string;
  devToken: string;
  logger: Logger;
  /** True once `close()` began: new requests get `503 unavailable`. */
  isClosing: () => boolean;
  /** The URLs once listening (for the control API's `/info`). */
  urls: () => EmulatorUrls | undefined;
}

/** The pieces of the server that the emulator keeps a hand on. */
export interface BuiltServer {
  app: FastifyInstance;
  limiter: FixedWindowLimiter;
}

/**
 * Builds the Fastify app: the JSON-only body parser, TypeBox validation through the protocol's
 * checkers, one error handler for the contract's envelope, the app API gate (auth, rate limit,
 * idempotency), the 13 app API endpoints, the control API, the playground, `/healthz`, and `405`
 * answers for known paths with another method.
 */
export function buildServer(deps: ServerDeps): BuiltServer {
  const { platform: p, options, logger } = deps;
  const limiter = new FixedWindowLimiter(options.rateLimit.requests, options.rateLimit.windowMs, options.now);
  const app = Fastify({
    // A URL that is not validly percent-encoded never reaches a route or a hook: answer it with the
    // envelope too (and, on the app API, the rate-limit headers of a fresh window).
    frameworkErrors: (error, request, reply) => {
      if (isAppApiUrl(request.url)) setRateHeaders(reply, limiter.fresh());
      sendPlatformError(reply, validationFailed([{ path: '/', message: error.message }], 'The URL is invalid'));
    },
    loggerInstance: toFastifyLogger(logger),
    // Requests are logged below with their URLs redacted (tokens, admin key), never by Fastify.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.limits.bodyBytes,
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Long enough for any interaction token a client may send (an unknown one is a 404, not a routing miss).
    routerOptions: { maxParamLength: 16 * 1024 },
  });
  app.setValidatorCompiler(typeboxValidatorCompiler);
  installJsonParser(app);
  installErrorHandler(app, logger);
  const routes = collectRoutes(app);

  installAppApiGate(app, p, { limiter, inFlight: new InFlightKeys(), isClosing: deps.isClosing });
  app.addHook('onRequest', async (request) => {
    if (isAppApiUrl(request.url)) return;
    if (deps.isClosing()) throw new PlatformError('unavailable', 'The emulator is shutting down: retry shortly');
    if (request.routeOptions.config.auth === 'admin') requireAdmin(request, deps.adminKey);
  });
  // CONTRACT (durability): an answer leaves only once the writes made before it are committed.
  app.addHook('onSend', async () => {
    if (p.hasPendingWrites) await p.flushed();
  });
  if (logsInfo(logger)) {
    app.addHook('onResponse', async (request, reply) => {
      const line = { method: request.method, url: redactUrl(request.url), status: reply.statusCode };
      logger.info({ ...line, ms: Math.round(reply.elapsedTime) }, 'request');
    });
  }

  boardRoutes(app, p);
  messageRoutes(app, p);
  userRoutes(app, p);
  appRoutes(app, p);
  interactionRoutes(app, p);
  gatewayRoutes(app, p, options.keepAliveMs);
  controlRoutes(app, p, deps);
  app.get('/healthz', { config: { auth: 'none' } }, async () => ({ ok: true }));
  playgroundRoutes(app);
  addMethodNotAllowedRoutes(app, routes);
  return { app, limiter };
}
