import { refuse } from '@boardbot/core';
import { describe, expect, it } from 'vitest';
import { walkQuestions } from '../../src/conversations/conversation-path.js';

// docs/conversations.md, "Branches": the path is worked out from the answer texts alone.

const number = { ask: 'How many?', parse: (t: string) => (/^\d+$/.test(t) ? Number(t) : refuse('A number.')) };
// These questions have no answer class: nothing to vet.
const vetNothing = async () => {};
const questions = [number, (a: readonly unknown[]) => (a[0] === 0 ? undefined : 'Who?'), 'Where?'];

describe('walkQuestions', () => {
  it('calls each branch with the values before it, and a skipped question takes no text', async () => {
    expect(await walkQuestions(questions, [], vetNothing)).toEqual({ values: [], taken: 0, next: 0, question: number });
    expect(await walkQuestions(questions, ['2'], vetNothing)).toEqual({
      values: [2],
      taken: 1,
      next: 1,
      question: 'Who?',
    });
    expect(await walkQuestions(questions, ['0'], vetNothing)).toEqual({
      values: [0, undefined],
      taken: 1,
      next: 2,
      question: 'Where?',
    });
    expect(await walkQuestions(questions, ['0', 'home'], vetNothing)).toEqual({
      values: [0, undefined, 'home'],
      taken: 2,
      next: 3,
      question: undefined,
    });
  });

  it('stops at a kept text its question now refuses: that question is asked again', async () => {
    // Taken by an earlier version of the bot, whose first question took any text.
    expect(await walkQuestions(questions, ['many', 'Ann'], vetNothing)).toEqual({
      values: [],
      taken: 0,
      next: 0,
      question: number,
    });
  });
});
