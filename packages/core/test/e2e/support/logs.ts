import { Writable } from 'node:stream';
import type { Logger } from '@boardbot/protocol';
import { pino } from 'pino';

/** A pino logger writing JSON lines into memory, to assert on what the bot logs. */
export interface LogCapture {
  logger: Logger;
  /** Every line so far, parsed. */
  lines(): Record<string, unknown>[];
  /** Every line so far, as written. */
  text(): string;
}

/** Captures a pino logger's lines (debug and up), with the runtime's redaction paths. */
export function captureLogs(): LogCapture {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = pino({ level: 'debug' }, stream);
  const text = () => chunks.join('');
  return {
    logger,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
