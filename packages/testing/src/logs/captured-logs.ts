import { REDACT_PATHS } from '@boardbot/core';
import type { Logger } from '@boardbot/protocol';
import { type Level, pino } from 'pino';

/** One line the bot logged, parsed from pino's JSON. */
export interface LogLine {
  /** pino's level name: `trace`, `debug`, `info`, `warn`, `error` or `fatal`. */
  level: string;
  /** The message. */
  msg: string;
  /** Every other field of the line (bindings such as `command`, `handler`, `err`). */
  [field: string]: unknown;
}

/** What to look for with {@link CapturedLogs.find}. */
export interface LogQuery {
  /** Exact level name, or the lowest level to include with `atLeast`. */
  level?: string;
  /** Only lines at this level or above. */
  atLeast?: string;
  /** Text the message contains, or a regular expression it matches. */
  msg?: string | RegExp;
}

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

/**
 * The bot's log, captured in memory instead of printed: a pino logger (what `createBot` gets) and
 * the parsed lines, for assertions and for the "what the bot did instead" part of a timeout.
 */
export class CapturedLogs {
  /** The logger to give the bot. */
  readonly logger: Logger;
  private readonly parsed: LogLine[] = [];

  /** @param level - the lowest level captured, @defaultValue 'debug' */
  constructor(level: Level = 'debug') {
    // A destination with a synchronous `write`: a line is readable as soon as the log call returns.
    const destination = { write: (chunk: string) => this.push(chunk) };
    this.logger = pino(
      { level, base: null, timestamp: false, redact: { paths: [...REDACT_PATHS], censor: '[redacted]' } },
      destination,
    );
  }

  /** Every line so far, oldest first. */
  get lines(): readonly LogLine[] {
    return this.parsed;
  }

  /** The lines matching `query`. */
  find(query: LogQuery = {}): LogLine[] {
    const floor = query.atLeast === undefined ? undefined : (LEVELS[query.atLeast] ?? 0);
    return this.parsed.filter((l) => {
      if (query.level !== undefined && l.level !== query.level) return false;
      if (floor !== undefined && (LEVELS[l.level] ?? 0) < floor) return false;
      if (query.msg === undefined) return true;
      return typeof query.msg === 'string' ? l.msg.includes(query.msg) : query.msg.test(l.msg);
    });
  }

  /** Lines at `warn` and above: what a test report shows. */
  problems(): LogLine[] {
    return this.find({ atLeast: 'warn' });
  }

  /** Every line as one text, one line each (`LEVEL message {fields}`), for a failure message. */
  text(query: LogQuery = {}): string {
    return this.find(query).map(formatLogLine).join('\n');
  }

  private push(chunk: string): void {
    for (const raw of chunk.split('\n')) {
      if (raw.trim() === '') continue;
      try {
        const obj = JSON.parse(raw) as Record<string, unknown>;
        const level = typeof obj.level === 'number' ? levelName(obj.level) : String(obj.level);
        this.parsed.push({ ...obj, level, msg: typeof obj.msg === 'string' ? obj.msg : '' });
      } catch {
        this.parsed.push({ level: 'info', msg: raw });
      }
    }
  }
}

function levelName(value: number): string {
  return Object.entries(LEVELS).find(([, v]) => v === value)?.[0] ?? String(value);
}

/** One log line as a short text: level, message, the fields that explain it, and an error's message. */
export function formatLogLine(line: LogLine): string {
  const { level, msg, err, ...rest } = line;
  const fields = Object.entries(rest)
    .filter(([k]) => !['pid', 'hostname', 'time', 'name', 'correlation_id', 'event_id'].includes(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  const error = err && typeof err === 'object' ? (err as { type?: string; message?: string }) : undefined;
  const cause = error ? ` — ${error.type ?? 'Error'}: ${error.message ?? ''}` : '';
  return `${level.toUpperCase()} ${msg}${fields ? ` (${fields})` : ''}${cause}`;
}
