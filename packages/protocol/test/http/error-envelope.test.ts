import { readErrorEnvelope } from '@boardbot/protocol/http';
import { describe, expect, it } from 'vitest';

const body = (error: unknown) => JSON.stringify({ error });

describe('readErrorEnvelope', () => {
  it('reads every field of the contract envelope', () => {
    const text = body({
      code: 'validation_failed',
      message: 'bad body',
      details: [{ path: '/content', message: 'too long' }],
    });
    expect(readErrorEnvelope(text)).toEqual({
      code: 'validation_failed',
      message: 'bad body',
      details: [{ path: '/content', message: 'too long' }],
      retry_after: undefined,
    });
    expect(readErrorEnvelope(body({ code: 'rate_limited', message: 'slow down', retry_after: 0.734 }))).toEqual({
      code: 'rate_limited',
      message: 'slow down',
      details: undefined,
      retry_after: 0.734,
    });
  });

  it('takes any { error: { code } } as an API error, keeping codes it does not know and ignoring extra fields', () => {
    expect(readErrorEnvelope(body({ code: 'brand_new_code', extra: 1 }))).toEqual({
      code: 'brand_new_code',
      message: undefined,
      details: undefined,
      retry_after: undefined,
    });
    expect(readErrorEnvelope(JSON.stringify({ error: { code: 'x', message: 'm' }, request_id: 'r1' }))?.code).toBe('x');
  });

  it('keeps only fields of the contract type', () => {
    const read = readErrorEnvelope(
      body({
        code: 'validation_failed',
        message: 42,
        details: [{ path: '/a', message: 'ok' }, { path: '/b' }, { path: 3, message: 'no path' }, 'junk', null],
        retry_after: 'soon',
      }),
    );
    expect(read).toEqual({
      code: 'validation_failed',
      message: undefined,
      details: [
        { path: '/a', message: 'ok' },
        { path: '/b', message: '' },
      ],
      retry_after: undefined,
    });
    expect(readErrorEnvelope(body({ code: 'x', details: 'none' }))?.details).toBeUndefined();
  });

  it('gives nothing for a body that is not an envelope', () => {
    for (const text of [
      '',
      '<html><body>502 Bad Gateway</body></html>',
      '{"error":',
      'null',
      '[]',
      '"error"',
      JSON.stringify({ message: 'no error key' }),
      body('unauthorized'),
      body(null),
      body({ message: 'no code' }),
      body({ code: '' }),
      body({ code: 404 }),
    ])
      expect(readErrorEnvelope(text), text).toBeUndefined();
  });
});
