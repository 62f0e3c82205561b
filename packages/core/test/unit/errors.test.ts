import { readFileSync } from 'node:fs';
import {
  BoardbotCoreError,
  BotStateError,
  CircularDependencyError,
  CORE_ERROR_CODES,
  CommandsDriftError,
  HandlerTimeoutError,
  InteractionExhaustedError,
  InteractionExpiredError,
  InvalidCommandsError,
  InvalidConfigError,
  InvalidHandlerError,
  InvalidOptionError,
  InvalidReplyError,
  MissingMetadataError,
  MissingProviderError,
  ShutdownTimeoutError,
  WriteDroppedError,
} from '@boardbot/core';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('errors', () => {
  it('every code is listed in the README table, and the table lists no other', () => {
    for (const code of CORE_ERROR_CODES) expect(readme).toContain(`| \`${code}\``);
    const listed = [...readme.matchAll(/^\| `(BOARDBOT_[A-Z_]+)`/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...CORE_ERROR_CODES].sort());
  });

  it('every error class carries its stable code and its name', () => {
    const errors: BoardbotCoreError[] = [
      new MissingMetadataError('X.y', 'give a type'),
      new MissingProviderError('A', 'B', 0),
      new CircularDependencyError(['A', 'B', 'A']),
      new InvalidHandlerError('x'),
      new InvalidOptionError('x'),
      new InvalidCommandsError(['x']),
      new CommandsDriftError('plan'),
      new HandlerTimeoutError('A.run', 10),
      new ShutdownTimeoutError('A.run', 10),
      new WriteDroppedError('A.run', 'reply', new HandlerTimeoutError('A.run', 10)),
      new InteractionExhaustedError('/roll'),
      new InvalidReplyError(['x']),
      new InvalidConfigError('x'),
      new BotStateError('x'),
      new InteractionExpiredError('/roll'),
    ];
    expect(errors.map((e) => e.code).sort()).toEqual([...CORE_ERROR_CODES].sort());
    for (const e of errors) {
      expect(e).toBeInstanceOf(BoardbotCoreError);
      expect(e.name).toBe(e.constructor.name);
    }
  });
});
