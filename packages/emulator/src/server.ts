import type { Duplex } from 'node:stream';
import { type Logger, silentLogger } from '@boardbot/protocol';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { validationFailed } from './errors.js';
import { answerServerLevelRequests, clientErrorHandler } from './http/client-errors.js';
import { installErrorHandler, refuseAsNotFound, sendPlatformError } from './http/error-handler.js';
import { accessOf, installGate } from './http/gate.js';
import { installJsonParser } from './http/json-parser.js';
import { addMethodNotAllowedRoutes } from './http/method-not-allowed.js';
import { RateVerdicts } from './http/rate-verdicts.js';
import { trackRoutes } from './http/route-table.js';
import { typeboxValidatorCompiler } from './http/validation.js';
import { InFlightKeys } from './idempotency/in-flight.js';
import { toFastifyLogger } from './logging.js';
import { installObserve } from './observe/install-observe.js';
import { playgroundRoutes } from './playground.js';
import { FixedWindowLimiter } from './ratelimit/fixed-window.js';
import { appRoutes } from './routes/app.js';
import { boardRoutes } from './routes/boards.js';
import { controlRoutes } from './routes/control/index.js';
import { gatewayRoutes } from './routes/gateway.js';
import { interactionRoutes } from './routes/interactions.js';
import { messageRoutes } from './routes/messages.js';
import { api } from './routes/shared.js';
import { userRoutes } from './routes/users.js';
import { installSecurityHeaders } from './security-headers.js';
import type { ServerDeps } from './server-deps.js';

// Request lines are info-level: when the logger drops them anyway, the hook is not installed at all.
function logsInfo(logger: Logger): boolean {
  if (logger === silentLogger) return false;
  const check = (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return typeof check !== 'function' || check.call(logger, 'info');
}

/** The pieces of the server that the emulator keeps a hand on. */
export interface BuiltServer {
  app: FastifyInstance;
  limiter: FixedWindowLimiter;
}

/**
 * Builds the Fastify app: the JSON-only body parser, TypeBox validation through the protocol's
 * checkers, the envelope for every refusal (the HTTP layer's included), the `Host` check, one gate
 * deciding auth, rate limit and idempotency from each route's access rule, the 13 app API endpoints,
 * the control API, the playground, `/healthz`, `/metrics`, and `405` answers for known paths with another method.
 */
export function buildServer(deps: ServerDeps): BuiltServer {
  const { platform: p, options, logger } = deps;
  const { limits } = options;
  const limiter = new FixedWindowLimiter(options.rateLimit.requests, options.rateLimit.windowMs, options.now);
  const verdicts = new RateVerdicts(limiter);
  const ofSocket = (socket: Duplex) => verdicts.ofSocket(socket);
  const app = Fastify({
    http: {
      // A request without Host is answered by the emulator (the envelope), not by Node's bare 400.
      requireHostHeader: false,
      headersTimeout: limits.headersTimeoutMs,
      // Node checks the two timeouts on this period; a quarter of the shorter keeps answers prompt.
      connectionsCheckingInterval: Math.max(25, Math.min(1000, limits.headersTimeoutMs / 4)),
    },
    requestTimeout: limits.requestTimeoutMs,
    clientErrorHandler: clientErrorHandler(limits, ofSocket),
    // A URL that is not validly percent-encoded never reaches a route or a hook: answer it with the
    // envelope too. Fastify's message quotes the path, which may hold a token: not echoed.
    frameworkErrors: (error, request, reply) => {
      const message =
        error.code === 'FST_ERR_BAD_URL'
          ? 'A part of the URL is not validly percent-encoded'
          : 'A path parameter is too long';
      sendPlatformError(reply, validationFailed([{ path: '/', message }], 'The URL is invalid'), () =>
        verdicts.anonymous(request.ip),
      );
    },
    loggerInstance: toFastifyLogger(logger),
    // Requests are logged below with their URLs redacted (tokens, admin key), never by Fastify.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: limits.bodyBytes,
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Long enough for any interaction token a client may send (an unknown one is a 404, not a routing miss).
    routerOptions: { maxParamLength: 16 * 1024 },
  });
  answerServerLevelRequests(app.server, ofSocket);
  app.setValidatorCompiler(typeboxValidatorCompiler);
  installJsonParser(app);
  installErrorHandler(app, logger, (request) => verdicts.ofRefusal(accessOf(request), request.ip));
  const routes = trackRoutes(app);

  installSecurityHeaders(app);
  installGate(app, {
    p,
    verdicts,
    inFlight: new InFlightKeys(),
    isClosing: deps.isClosing,
    adminKey: deps.adminKey,
    allowedHosts: deps.allowedHosts,
  });
  // CONTRACT (durability): an answer leaves only once the writes made before it are committed.
  app.addHook('onSend', (_request, _reply, payload, done) => {
    if (!p.hasPendingWrites) return done(null, payload);
    p.flushed().then(
      () => done(null, payload),
      (err: Error) => done(err),
    );
  });
  installObserve(app, p, logsInfo(logger) ? logger : undefined);

  boardRoutes(app, p);
  messageRoutes(app, p);
  userRoutes(app, p);
  appRoutes(app, p);
  interactionRoutes(app, p);
  gatewayRoutes(app, p, options.keepAliveMs);
  controlRoutes(app, p, deps);
  app.get('/healthz', { config: { auth: 'none' } }, async () => ({ ok: true }));
  // Unknown paths under the app API are app API answers (a credential, when given, is counted),
  // refused on their head whatever their body.
  const appApiNotFound = { config: { auth: 'optional' as const }, onRequest: refuseAsNotFound };
  app.all(api(''), appApiNotFound, async () => undefined);
  app.all(api('/*'), appApiNotFound, async () => undefined);
  playgroundRoutes(app);
  addMethodNotAllowedRoutes(app, routes);
  return { app, limiter };
}
