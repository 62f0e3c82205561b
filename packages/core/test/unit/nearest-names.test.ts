import { nearestNames } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

// docs/commands-and-options.md, "Text commands": which names a mistyped command is answered with.

const NAMES = ['language', 'lang', 'help', 'roll', 'remind', 'ping'];

describe('nearestNames', () => {
  it('finds a name one swap, insertion, deletion or substitution away, nearest first', () => {
    expect(nearestNames('langauge', NAMES)).toEqual(['language']);
    expect(nearestNames('rol', NAMES)).toEqual(['roll']);
    expect(nearestNames('remnid', NAMES)).toEqual(['remind']);
    expect(nearestNames('langu', NAMES)).toEqual(['lang']);
  });

  it('allows one edit for a short name and two for a longer one', () => {
    expect(nearestNames('hi', NAMES)).toEqual([]);
    expect(nearestNames('pong', NAMES)).toEqual(['ping']);
    expect(nearestNames('lnguag', NAMES)).toEqual(['language']);
  });

  it('does not compare a word longer than any command name can be', () => {
    expect(nearestNames('a'.repeat(4000), ['a'.repeat(32)])).toEqual([]);
    expect(nearestNames('', NAMES)).toEqual([]);
  });
});
