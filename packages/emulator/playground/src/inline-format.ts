/** A run of message text with one style. */
export interface Span {
  kind: 'text' | 'bold' | 'italic' | 'code' | 'link';
  text: string;
}

// The contract stores content as plain text; bots still write the usual chat emphasis
// (`**17**`, `*note*`, `` `code` ``) and paste links. The page shows those styled, never as HTML:
// spans become elements, so no text can inject markup.
const TOKEN =
  /`([^`\n]+)`|\*\*([^*\n]+)\*\*|(?<![\w*])\*([^*\s][^*\n]*?)\*(?![\w*])|(?<!\w)_([^_\s][^_\n]*?)_(?!\w)|(https?:\/\/[^\s<>"]+)/g;

// A link does not swallow the punctuation that usually follows one in a sentence.
const TRAILING = /[.,;:!?)\]'"]+$/;

/**
 * Splits message text into styled spans: `` `code` ``, `**bold**`, `*italic*` or `_italic_`, and
 * `http(s)` links; everything else is text. No nesting: enough for chat, and predictable.
 *
 * @param text - the message content.
 */
export function inlineSpans(text: string): Span[] {
  const spans: Span[] = [];
  let last = 0;
  const push = (kind: Span['kind'], value: string) => {
    if (value === '') return;
    const prev = spans.at(-1);
    if (kind === 'text' && prev?.kind === 'text') prev.text += value;
    else spans.push({ kind, text: value });
  };
  for (const match of text.matchAll(TOKEN)) {
    const start = match.index;
    push('text', text.slice(last, start));
    const [whole, code, bold, star, underscore, url] = match;
    last = start + whole.length;
    if (code !== undefined) push('code', code);
    else if (bold !== undefined) push('bold', bold);
    else if (star !== undefined) push('italic', star);
    else if (underscore !== undefined) push('italic', underscore);
    else if (url !== undefined) {
      const tail = TRAILING.exec(url)?.[0] ?? '';
      push('link', url.slice(0, url.length - tail.length));
      push('text', tail);
    }
  }
  push('text', text.slice(last));
  return spans;
}
