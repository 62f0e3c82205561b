import { Writable } from 'node:stream';
import { createLogger, defaultLoggerOptions } from '@boardbot/core/internal';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';

function sink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _e, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => lines.join('') };
}

describe('createLogger', () => {
  it('adds token redaction to a pino logger that has none', () => {
    const out = sink();
    const log = createLogger(pino(out.stream));
    log.info({ token: 'secret-1', interaction: { token: 'secret-2', id: 'i' } }, 'x');
    expect(out.text()).not.toMatch(/secret-/);
    expect(out.text()).toContain('"id":"i"');
  });

  it("keeps a pino logger's own redaction", () => {
    const out = sink();
    const log = createLogger(pino({ redact: ['password'] }, out.stream));
    log.info({ password: 'hunter2' }, 'x');
    expect(out.text()).not.toContain('hunter2');
  });

  it('uses pino-pretty on a terminal and JSON lines otherwise', () => {
    expect(defaultLoggerOptions(true).transport).toMatchObject({ target: 'pino-pretty' });
    expect(defaultLoggerOptions(false).transport).toBeUndefined();
    expect(defaultLoggerOptions(false).redact).toMatchObject({ censor: '[redacted]' });
  });

  it('false gives a logger that writes nothing', () => {
    expect(() => createLogger(false).info('nothing')).not.toThrow();
  });
});
