import { checkerFor, MessageCreateEvent } from '@boardbot/protocol';
import { ManualClock, message, ready } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { compareEventIds, isDuplicateId } from '../src/events/event-id.js';
import { ResumePoint } from '../src/events/resume-point.js';
import { structuralSchema } from '../src/events/structural-schema.js';
import { RetryFieldScanner } from '../src/transport/retry-field-scanner.js';
import { isCommentOnly, TrailingCrResolver } from '../src/transport/stream-bytes.js';
import { KeepAliveWatchdog } from '../src/watchdog/keep-alive-watchdog.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('KeepAliveWatchdog', () => {
  it('fires after the timeout of silence, and any activity pushes it back', () => {
    const clock = new ManualClock();
    let fired = 0;
    const dog = new KeepAliveWatchdog(35_000, clock, () => fired++);
    dog.start();
    clock.advance(20_000);
    dog.touch(); // a `: keep-alive` comment
    clock.advance(20_000);
    expect(fired).toBe(0);
    clock.advance(14_999);
    expect(fired).toBe(0);
    clock.advance(1);
    expect(fired).toBe(1);
    expect(clock.pending).toBe(0);
  });

  it('leaves no timer after stop()', () => {
    const clock = new ManualClock();
    let fired = 0;
    const dog = new KeepAliveWatchdog(1000, clock, () => fired++);
    dog.start();
    dog.stop();
    expect(clock.pending).toBe(0);
    clock.advance(5000);
    expect(fired).toBe(0);
  });
});

describe('RetryFieldScanner', () => {
  const scanAll = (chunks: string[]) => {
    const scanner = new RetryFieldScanner();
    return chunks.map((c) => scanner.scan(bytes(c)));
  };

  it('finds retry: at a line start only, in any line-end style', () => {
    expect(scanAll(['retry: 1000\n\n'])).toEqual([1000]);
    expect(scanAll(['data: x\nretry:250\r\n'])).toEqual([250]);
    expect(scanAll([': c\rretry: 7\r'])).toEqual([7]);
    expect(scanAll(['data: retry: 5\n\n'])).toEqual([undefined]);
    expect(scanAll(['xretry: 5\n'])).toEqual([undefined]);
  });

  it('ignores values that are not only digits', () => {
    expect(scanAll(['retry: abc\n', 'retry: 1x\n', 'retry: \n', 'retry: -5\n', 'retry:  5\n'])).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('joins a field split across chunks, even byte by byte', () => {
    const text = 'id: 1\nretry: 4321\n\n';
    const results = scanAll(text.split(''));
    expect(results.filter((r) => r !== undefined)).toEqual([4321]);
    expect(scanAll(['data: a\nre', 'try: 9', '9\n'])).toEqual([undefined, undefined, 99]);
  });

  it('does not take the tail of a long line for a field start', () => {
    expect(scanAll([`data: ${'x'.repeat(100)}`, 'retry: 5\n'])).toEqual([undefined, undefined]);
  });
});

describe('stream bytes', () => {
  it('recognises keep-alive chunks', () => {
    expect(isCommentOnly(bytes(': keep-alive\n\n'))).toBe(true);
    expect(isCommentOnly(bytes('\n'))).toBe(true);
    expect(isCommentOnly(bytes(': a\n: b\r\n'))).toBe(true);
    expect(isCommentOnly(bytes(': a\ndata: x\n'))).toBe(false);
    expect(isCommentOnly(bytes('data: x\n'))).toBe(false);
    expect(isCommentOnly(bytes(`:${'x'.repeat(2000)}`))).toBe(false);
  });

  it('completes a chunk-final CR and drops the LF that may follow', () => {
    const crs = new TrailingCrResolver();
    const text = (u: Uint8Array) => new TextDecoder().decode(u);
    expect(text(crs.resolve(bytes('a\r')))).toBe('a\r\n');
    expect(text(crs.resolve(bytes('\nb\n')))).toBe('b\n');
    expect(text(crs.resolve(bytes('c\r')))).toBe('c\r\n');
    expect(text(crs.resolve(bytes('d')))).toBe('d');
  });
});

describe('event ids and the resume point', () => {
  it('compares decimal ids of any length, and gives up on opaque ones', () => {
    expect(compareEventIds('9', '10')).toBeLessThan(0);
    expect(compareEventIds('12345678901234567890', '12345678901234567891')).toBeLessThan(0);
    expect(compareEventIds('007', '7')).toBe(0);
    expect(compareEventIds('abc', '1')).toBeUndefined();
    expect(isDuplicateId('5', '5')).toBe(true);
    expect(isDuplicateId('4', '5')).toBe(true);
    expect(isDuplicateId('6', '5')).toBe(false);
    expect(isDuplicateId('x', 'x')).toBe(true);
    expect(isDuplicateId('y', 'x')).toBe(false);
    expect(isDuplicateId('', '5')).toBe(false);
  });

  it('keeps its point on a resumed ready and resets it on a fresh one', () => {
    const point = new ResumePoint('10');
    point.ready(ready({ resumed: true }), '99');
    expect(point.id).toBe('10');
    expect(point.admit('11')).toBe('accept');
    expect(point.admit('11')).toBe('duplicate');
    point.ready(ready({ resumed: false, gap: true }), '500');
    expect(point.id).toBe('500');
    expect(point.admit('3')).toBe('duplicate');
    expect(point.admit('501')).toBe('accept');
  });
});

describe('structuralSchema', () => {
  it('keeps types and required fields but not string formats', () => {
    const strict = checkerFor(MessageCreateEvent);
    const structural = checkerFor(structuralSchema(MessageCreateEvent));
    const odd = { type: 'message.create', message: { ...message(1), id: 'msg_1', created_at: 'yesterday' } };
    expect(strict.is(odd)).toBe(false);
    expect(structural.is(odd)).toBe(true);
    expect(structural.is({ type: 'message.create', message: { ...message(1), seq: '1' } })).toBe(false);
    expect(structural.is({ type: 'message.edit', message: message(1) })).toBe(false);
    const { content: _content, ...missing } = message(1);
    expect(structural.is({ type: 'message.create', message: missing })).toBe(false);
  });
});
