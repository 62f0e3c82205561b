import { AnswerSplitter, openFenceAfter, splitAnswer } from '@boardbot/core/internal';
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

describe('AnswerSplitter', () => {
  /** A text of prose, code blocks and runs of blank space, in pieces the size a model streams. */
  const pieces = (): string[] => {
    const code = Array.from({ length: 30 }, (_, i) => `  let v${i} = f(${i});`).join('\n');
    const text = Array.from(
      { length: 12 },
      (_, i) => `Part ${i}: ${'word '.repeat(20)}\n\n\`\`\`js\n${code}\n\`\`\`\n${' \t'.repeat(i * 9)}end ${i}.`,
    ).join('\n\n');
    return Array.from({ length: Math.ceil(text.length / 37) }, (_, i) => text.slice(i * 37, i * 37 + 37));
  };

  it('gives, at every step of a growing text, what a whole split of that text gives', () => {
    const splitter = new AnswerSplitter(300);
    let text = '';
    for (const piece of pieces()) {
      text += piece;
      expect(splitter.split(text)).toEqual(splitAnswer(text, 300));
    }
  });

  // Issue 40, finding 5: a source yielding '\t'×3,981 + 'x' a second held the event loop for seconds,
  // the trim of each cut backtracking over the tabs and every flush splitting the whole text again.
  it('reads a growing tab flood about once: twice the text, about twice the characters scanned', () => {
    const visited = (floods: number) => {
      const splitter = new AnswerSplitter(3998);
      let text = '';
      for (let i = 0; i < floods; i++) {
        text += `${'\t'.repeat(3981)}x`;
        splitter.split(text);
      }
      return { visited: splitter.visited, length: text.length };
    };
    const small = visited(30);
    const large = visited(60);
    expect(large.visited / small.visited).toBeLessThan(2.2);
    // Each character is scanned a bounded number of times, whatever the number of flushes.
    expect(large.visited).toBeLessThan(4 * large.length);
  });

  it('trims the spaces a cut leaves at the end of a part, as before', () => {
    const parts = splitAnswer(`${'\t'.repeat(150)}x${'\t'.repeat(150)}y`, 100);
    expect(parts.every((p) => p.length <= 100 && !/\s$/.test(p))).toBe(true);
    expect(parts.join('').replace(/\s/g, '')).toBe('xy');
  });
});
