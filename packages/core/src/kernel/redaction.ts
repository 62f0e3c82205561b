import type { Logger } from '@boardbot/protocol';
import { type LoggerOptions, type Logger as PinoLogger, pino } from 'pino';

/**
 * Paths censored in every line of the bot's logger, whatever logger or options it was given. The
 * runtime never logs a token, but a bot author's `ctx.log.info({ interaction })` must not leak one
 * either.
 */
export const REDACT_PATHS: readonly string[] = [
  'token',
  '*.token',
  'interaction.token',
  '*.interaction.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'req.headers.authorization',
];

/** What replaces a redacted value. */
export const CENSOR = '[redacted]';

/** pino's `redact` option. */
type RedactOption = NonNullable<LoggerOptions['redact']>;

/**
 * pino's `redact` option with the token paths added to the caller's own (pino would let the
 * caller's replace them). The caller's censor and `remove` are kept.
 *
 * @param own - the `redact` option the caller gave, if any
 */
export function mergeRedact(own: RedactOption | undefined): Exclude<RedactOption, string[]> {
  if (own === undefined) return { paths: [...REDACT_PATHS], censor: CENSOR };
  const paths = (list: readonly string[]) => [...new Set([...list, ...REDACT_PATHS])];
  if (Array.isArray(own)) return { paths: paths(own), censor: CENSOR };
  return { ...own, paths: paths(own.paths) };
}

const SPLIT_PATHS = REDACT_PATHS.map((path) => path.split('.'));

/**
 * `value` with every token path censored. Only the objects on the way to a value that is there are
 * copied, with their prototype and every own field (an Error keeps its message and stack, which
 * pino's `err` serializer reads after this runs), and the object a handler logged keeps its token.
 * (`@pinojs/redact`, which pino redacts with, copies along every wildcard and drops non-enumerable
 * fields: fine after serializers, where pino runs it, not before them, where this runs.)
 */
function censor<T>(value: T): T {
  let out: unknown = value;
  for (const path of SPLIT_PATHS) out = censorAt(out, path, 0);
  return out as T;
}

function censorAt(node: unknown, path: readonly string[], depth: number): unknown {
  if (typeof node !== 'object' || node === null) return node;
  const segment = path[depth] as string;
  const keys = segment === '*' ? Object.keys(node) : Object.hasOwn(node, segment) ? [segment] : [];
  let copy: object | undefined;
  for (const key of keys) {
    const current = (node as Record<string, unknown>)[key];
    const next = depth === path.length - 1 ? CENSOR : censorAt(current, path, depth + 1);
    if (next === current) continue;
    copy ??= Array.isArray(node)
      ? [...node]
      : Object.create(Object.getPrototypeOf(node), Object.getOwnPropertyDescriptors(node));
    Object.defineProperty(copy, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? node;
}

/** Whether `log` is a pino logger (the only kind whose lines the runtime can reach into). */
function isPino(log: Logger): log is Logger & PinoLogger {
  const p = log as Partial<PinoLogger>;
  return typeof p.bindings === 'function' && typeof p.levels === 'object';
}

/**
 * A child of a pino logger that also censors the token paths, in every line and in the bindings of
 * every child made from it. Its own redaction, censor and log formatter are kept: a child's `redact`
 * option would replace the parent's, so the token paths are censored by a log formatter (run after
 * the parent's) and by a `child` that censors bindings first. Other loggers are returned as they are.
 *
 * @param log - the logger the bot was given
 */
export function withTokenRedaction(log: Logger): Logger {
  if (!isPino(log)) return log;
  const own = (log as unknown as Record<symbol, { log?: (o: object) => object } | undefined>)[
    pino.symbols.formattersSym
  ]?.log;
  const redacted = log.child({}, { formatters: { log: own ? (o: object) => censor(own(o)) : censor } });
  const makeChild = redacted.child;
  // Children inherit this through their prototype, so bindings are censored at any depth.
  redacted.child = function child(this: PinoLogger, bindings, options) {
    return makeChild.call(this, censor(bindings), options);
  } as PinoLogger['child'];
  return redacted;
}
