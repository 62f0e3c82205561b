import { DEFAULT_MATCH_MAX_LENGTH, InvalidHandlerError, type MessageListenerMetadata, OnMessage } from '@boardbot/core';
import { declaredPatterns, MESSAGE_LISTENERS_KEY, matchMessage } from '@boardbot/core/internal';
import { message } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';

function listener(cls: object): MessageListenerMetadata {
  const [first] = Reflect.getMetadata(MESSAGE_LISTENERS_KEY, cls) as MessageListenerMetadata[];
  if (!first) throw new Error('no listener');
  return first;
}

const say = (content: string) => message(1, { content });

describe('regular expression listeners', () => {
  it('run on the re2 engine in linear time: the 40-character attack on /^(a+)+$/ simply does not match', () => {
    class Linear {
      @OnMessage(/^(a+)+$/, { engine: 're2' })
      all() {}
    }
    const meta = listener(Linear);
    expect(matchMessage(meta, say(`${'a'.repeat(39)}!`))).toBe(false);
    expect(matchMessage(meta, say('aaaa'))).toMatchObject({ 0: 'aaaa', 1: 'aaaa', index: 0 });
    // Not checked at start: the engine cannot backtrack.
    expect(declaredPatterns([meta])).toEqual([]);
  });

  it('give ctx.match the same shape on re2 as on the JavaScript engine (groups, named groups, index, flags)', () => {
    const pattern = /roll (?<count>\d+)d(\d+)/i;
    class OnRe2 {
      @OnMessage(pattern, { engine: 're2' })
      roll() {}
    }
    class OnJs {
      @OnMessage(pattern)
      roll() {}
    }
    const text = say('please ROLL 2d6 now');
    const re2 = matchMessage(listener(OnRe2), text);
    const js = matchMessage(listener(OnJs), text);
    expect(re2 && [...re2]).toEqual(js && [...js]);
    expect(re2 && { index: re2.index, input: re2.input, groups: { ...re2.groups } }).toEqual(
      js && { index: js.index, input: js.input, groups: { ...js.groups } },
    );
  });

  it('do not run on content longer than maxLength (default 2000)', () => {
    class Default {
      @OnMessage(/a/)
      a() {}
    }
    class Short {
      @OnMessage(/a/, { maxLength: 5 })
      a() {}
    }
    expect(DEFAULT_MATCH_MAX_LENGTH).toBe(2000);
    expect(matchMessage(listener(Default), say('a'.repeat(2000)))).not.toBe(false);
    expect(matchMessage(listener(Default), say('a'.repeat(2001)))).toBe(false);
    expect(matchMessage(listener(Short), say('aaaaa'))).not.toBe(false);
    expect(matchMessage(listener(Short), say('aaaaaa'))).toBe(false);
  });

  it('with allowSlowRegex are not checked at start, and match as before', () => {
    class OptedIn {
      @OnMessage(/^(a+)+$/, { allowSlowRegex: true })
      all() {}
    }
    const meta = listener(OptedIn);
    expect(declaredPatterns([meta])).toEqual([]);
    expect(matchMessage(meta, say('aaa'))).toMatchObject({ 0: 'aaa' });
  });

  it('refuse what RE2 cannot express, and regex options on other matchers, when the class is declared', () => {
    expect(() => {
      class Backreference {
        @OnMessage(/(a)\1/, { engine: 're2' })
        twice() {}
      }
      return Backreference;
    }).toThrow(InvalidHandlerError);
    expect(() => {
      class Prefix {
        @OnMessage('!echo ', { maxLength: 10 })
        echo() {}
      }
      return Prefix;
    }).toThrow(/Prefix\.echo: maxLength apply to a regular expression matcher only/);
  });
});
