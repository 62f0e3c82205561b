import type { Logger } from '@boardbot/protocol';

/** One log line: its level, the bindings it carries (its own fields over its logger's), its message. */
export interface LogLine {
  level: string;
  bindings: Record<string, unknown>;
  msg: string | undefined;
}

/** A logger in pino's shape that keeps what it is given, for asserting what was (and was not) logged. */
export interface RecordingLogger extends Logger {
  /** Every line of this logger and of its children, in order. */
  readonly lines: LogLine[];
  /**
   * Everything logged, as JSON text, errors included with their name, message, stack and causes:
   * what a test scans to prove that a secret never reached a log.
   */
  text(): string;
}

/** Makes an `Error` visible to `JSON.stringify`, which otherwise shows none of its message, stack or cause. */
function errorFields(_key: string, value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  return { ...value, name: value.name, message: value.message, stack: value.stack, cause: value.cause };
}

function make(lines: LogLine[], texts: string[], bound: Record<string, unknown>): RecordingLogger {
  const at =
    (level: string) =>
    (arg: object | string, msg?: string): void => {
      // Written down at once, as the logged objects are then: a later change to them cannot hide a leak.
      texts.push(JSON.stringify({ level, bindings: bound, arg, msg }, errorFields));
      if (typeof arg === 'string') lines.push({ level, bindings: { ...bound }, msg: arg });
      else lines.push({ level, bindings: { ...bound, ...arg }, msg });
    };
  return {
    lines,
    text: () => texts.join('\n'),
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (bindings) => make(lines, texts, { ...bound, ...bindings }),
  };
}

/** A new {@link RecordingLogger} with no lines yet. */
export function recordingLogger(): RecordingLogger {
  return make([], [], {});
}
