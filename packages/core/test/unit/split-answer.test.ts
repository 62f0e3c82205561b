import { openFenceAfter, splitAnswer } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

// docs/assistants.md, "Long answers": where an answer past the content limit is cut.

const fences = (content: string) => content.split('\n').filter((l) => /^ {0,3}(`{3,}|~{3,})/.test(l)).length;

describe('splitAnswer', () => {
  it('keeps an answer that fits in one part as it is', () => {
    expect(splitAnswer('short\n\ntext', 100)).toEqual(['short\n\ntext']);
  });

  it('cuts at the last paragraph that fits, else at a line, else at a space', () => {
    const paragraphs = `${'a'.repeat(60)}\n\n${'b'.repeat(60)}`;
    expect(splitAnswer(paragraphs, 100)).toEqual(['a'.repeat(60), 'b'.repeat(60)]);
    const lines = `${'a'.repeat(60)}\n${'b'.repeat(60)}`;
    expect(splitAnswer(lines, 100)).toEqual(['a'.repeat(60), 'b'.repeat(60)]);
    const words = `${'a '.repeat(50)}`.trim();
    const parts = splitAnswer(words, 60);
    expect(parts.every((p) => p.length <= 60 && !p.startsWith(' ') && !p.endsWith(' '))).toBe(true);
    expect(parts.join(' ')).toBe(words);
  });

  it('closes a code block cut at the limit and opens it again, with its language, in the next part', () => {
    const code = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const parts = splitAnswer(`Intro.\n\n\`\`\`ts\n${code}\n\`\`\`\n\nOutro.`, 80);
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.every((p) => p.length <= 80 && fences(p) % 2 === 0)).toBe(true);
    expect(parts.slice(1, -1).every((p) => p.startsWith('```ts\n') && p.endsWith('\n```'))).toBe(true);
  });

  it('keeps the parts before the last unchanged as more text arrives', () => {
    const text = Array.from({ length: 40 }, (_, i) => `sentence number ${i}.`).join(' ');
    const whole = splitAnswer(text, 100);
    for (let n = 1; n < text.length; n += 7) {
      const partial = splitAnswer(text.slice(0, n), 100);
      expect(partial.slice(0, -1)).toEqual(whole.slice(0, partial.length - 1));
    }
  });

  it('follows fences as CommonMark does: a closing fence matches its opener', () => {
    expect(openFenceAfter('```ts\ncode', '')).toBe('```ts');
    expect(openFenceAfter('```ts\ncode\n```', '')).toBe('');
    expect(openFenceAfter('````\n```\nstill code', '')).toBe('````');
    expect(openFenceAfter('~~~\n```', '')).toBe('~~~');
  });
});
