import {
  ChatAdapterOptionError,
  DEFAULT_BOARD_ADAPTER_OPTIONS,
  decodeThreadId,
  encodeThreadId,
  InvalidThreadIdError,
  resolveBoardAdapterOptions,
} from '@boardbot/chat-adapter';
import { describe, expect, it } from 'vitest';

const BOARD = '01a223cb-fe1f-7d38-9244-596401ca1d5b';
const ROOT = '01a223cc-0811-7565-bc52-5764e06d7d1e';

describe('createBoardAdapter options', () => {
  it('take the token and API URL from the environment, and the defaults', () => {
    const env = { BOARDBOT_TOKEN: 'tok', BOARDBOT_API_URL: 'http://127.0.0.1:9000/api/v1' };
    expect(resolveBoardAdapterOptions({}, env)).toMatchObject({
      token: 'tok',
      baseUrl: 'http://127.0.0.1:9000/api/v1',
      maxScan: DEFAULT_BOARD_ADAPTER_OPTIONS.maxScan,
      maxInFlight: DEFAULT_BOARD_ADAPTER_OPTIONS.maxInFlight,
    });
  });

  it('refuse a missing token, a base URL that is not http(s) and a bound out of range, naming the option', () => {
    const refusal = (run: () => unknown) => {
      try {
        run();
        return 'accepted';
      } catch (error) {
        return error instanceof ChatAdapterOptionError ? `${error.code}: ${error.message}` : String(error);
      }
    };
    expect(refusal(() => resolveBoardAdapterOptions({}, {}))).toMatch(
      /^BOARDBOT_CHAT_INVALID_OPTION: .*token.*BOARDBOT_TOKEN/,
    );
    expect(refusal(() => resolveBoardAdapterOptions({ token: 't', baseUrl: 'ftp://x' }, {}))).toMatch(/baseUrl/);
    expect(refusal(() => resolveBoardAdapterOptions({ token: 't', maxInFlight: 0 }, {}))).toMatch(/maxInFlight/);
    // The token never shows in a refusal.
    expect(refusal(() => resolveBoardAdapterOptions({ token: 'sk-secret', baseUrl: 'nope' }, {}))).not.toMatch(
      /sk-secret/,
    );
  });
});

describe('thread ids', () => {
  it('name a board as a channel and a reply chain by its first message, both ways', () => {
    expect(encodeThreadId({ boardId: BOARD })).toBe(`board:${BOARD}`);
    expect(decodeThreadId(`board:${BOARD}:${ROOT}`)).toEqual({ boardId: BOARD, rootId: ROOT });
    expect(decodeThreadId(encodeThreadId({ boardId: BOARD, rootId: ROOT }))).toEqual({ boardId: BOARD, rootId: ROOT });
  });

  it('refuse an id the adapter did not make', () => {
    for (const id of ['slack:C1:1', `board:${BOARD}:${ROOT}:x`, 'board:not-a-uuid', `board:${BOARD}:nope`]) {
      expect(() => decodeThreadId(id), id).toThrow(InvalidThreadIdError);
    }
  });
});
