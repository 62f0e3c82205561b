import { type Logger, silentLogger } from '@boardbot/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { type LoggerOptions, pino } from 'pino';

function isLogger(value: unknown): value is Logger {
  const v = value as Partial<Logger> | null;
  return typeof v === 'object' && v !== null && typeof v.info === 'function' && typeof v.child === 'function';
}

/**
 * The emulator's logger from its `logger` option: nothing for `false`, the given pino-compatible
 * logger as is, or a pino logger built from options (writing to stderr, so stdout stays for the CLI's
 * own output). Secrets never reach it: requests are logged by the emulator itself with their URLs
 * redacted (see {@link redactUrl}), never through Fastify's request serializer.
 */
export function resolveLogger(option: false | LoggerOptions | Logger): Logger {
  if (option === false) return silentLogger;
  if (isLogger(option)) return option;
  return pino({ ...option, redact: ['req.headers.authorization', 'headers.authorization'] }, pino.destination(2));
}

/** Fastify wants `fatal` and `level` as well; any `Logger` gets them here. */
export function toFastifyLogger(logger: Logger): FastifyBaseLogger {
  const l = logger as Logger & Partial<FastifyBaseLogger>;
  if (typeof l.fatal === 'function' && typeof l.level === 'string' && typeof l.silent === 'function') {
    return l as FastifyBaseLogger;
  }
  const adapted: FastifyBaseLogger = {
    level: 'info',
    trace: logger.trace.bind(logger),
    debug: logger.debug.bind(logger),
    info: logger.info.bind(logger),
    warn: logger.warn.bind(logger),
    error: logger.error.bind(logger),
    fatal: logger.error.bind(logger),
    silent: () => {},
    child: (bindings) => toFastifyLogger(logger.child(bindings)),
  };
  return adapted;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A request target safe to log or echo: the interaction token of `/interactions/{token}` and a
 * `key=` query parameter (the control API's admin key) are replaced, since both are credentials. The
 * path is percent-decoded first and an absolute-form origin dropped, so `/api/v1/%69nteractions/...`
 * or `http://host/api/v1/interactions/...` (which the router accepts) are redacted too.
 */
export function redactUrl(url: string): string {
  const [rawPath = '', ...query] = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split('?');
  const path = safeDecode(rawPath).replace(/(\/interactions\/)[^?#]*/i, '$1[token]');
  const search = query
    .join('?')
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0] ?? '';
      return safeDecode(name.replace(/\+/g, ' ')).toLowerCase() === 'key' ? `${name}=[redacted]` : pair;
    });
  return query.length > 0 ? `${path}?${search.join('&')}` : path;
}
