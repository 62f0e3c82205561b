import type { Logger } from '@boardbot/protocol';

/** One log line: level, merged bindings and message. */
export interface LogLine {
  level: string;
  bindings: Record<string, unknown>;
  msg: string | undefined;
}

/** A pino-shaped logger that keeps every line, for asserting what was (and was not) logged. */
export function recordingLogger(
  lines: LogLine[] = [],
  bound: Record<string, unknown> = {},
): Logger & { lines: LogLine[] } {
  const at =
    (level: string) =>
    (a: object | string, msg?: string): void => {
      if (typeof a === 'string') lines.push({ level, bindings: { ...bound }, msg: a });
      else lines.push({ level, bindings: { ...bound, ...a }, msg });
    };
  return {
    lines,
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (b) => recordingLogger(lines, { ...bound, ...b }),
  };
}
