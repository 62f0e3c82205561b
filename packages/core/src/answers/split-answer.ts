// Splits an answer too long for one message into message contents, as a person would: at a
// paragraph, else at a line, else at a space, and never inside a code block: a fence still open at a
// cut is closed at the end of the part and opened again (with its language) at the start of the next.

/** A fence line (CommonMark: up to 3 spaces, then 3 or more backticks or tildes, then the info string). */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
/** Room kept at the end of a part for the closing fence (`\n` and the marker). */
const CLOSE_ROOM = 16;
/** Longest fence line carried into the next part (the marker and a language name, not a whole line of text). */
const MAX_REOPEN = 64;

/** The fence line still open after `text`, given the one open before it (`''`: none). */
export function openFenceAfter(text: string, open: string): string {
  let fence = open;
  for (const line of text.split('\n')) {
    const m = FENCE.exec(line);
    if (!m) continue;
    const marker = m[1] as string;
    if (fence === '') {
      fence = line.trim();
      continue;
    }
    const openMarker = (FENCE.exec(fence)?.[1] ?? '```') as string;
    // CommonMark: the closing fence uses the opening character, at least as many, and no info string.
    if (marker[0] === openMarker[0] && marker.length >= openMarker.length && (m[2] ?? '').trim() === '') fence = '';
  }
  return fence;
}

/**
 * Where to cut `window`: after a paragraph near its end, else after its last line, else at a space,
 * else (one word longer than a message) at its end. A paragraph earlier than the last tenth would
 * cost a part its room: an answer then takes more messages than it needs.
 */
function cutIn(window: string): number {
  const paragraph = window.lastIndexOf('\n\n');
  if (paragraph >= window.length * 0.9) return paragraph + 2;
  const line = window.lastIndexOf('\n');
  if (line >= window.length / 4) return line + 1;
  const space = window.lastIndexOf(' ');
  if (space >= window.length / 2) return space + 1;
  return window.length;
}

/**
 * Splits an answer that grows, as a stream's text does: each call takes the whole text so far (which
 * extends the text of the call before) and gives the contents of its messages, each at most `limit`
 * characters. A part before the last depends only on the text up to its end, so it is final once a
 * later part exists: the splitter keeps those and cuts again only from the last part's start, so a
 * stream's flushes together read the text about once, not once per flush.
 */
export class AnswerSplitter {
  /** Characters the splitter has scanned so far (what its tests count to see it linear). */
  visited = 0;
  private readonly settled: string[] = [];
  /** Where the first part not yet final starts, and the fence open there. */
  private start = 0;
  private reopen = '';

  /** @param limit - the most characters of one message */
  constructor(private readonly limit: number) {}

  /**
   * The contents of the messages the answer takes now; the final parts are the same strings as before.
   * @param text - the whole answer so far, extending every text given before
   */
  split(text: string): string[] {
    for (;;) {
      const prefix = this.reopen === '' ? '' : `${this.reopen}\n`;
      if (prefix.length + text.length - this.start <= this.limit) {
        this.visited += text.length - this.start;
        return [...this.settled, prefix + text.slice(this.start)];
      }
      const window = text.slice(this.start, this.start + this.limit - prefix.length - CLOSE_ROOM);
      const cut = cutIn(window);
      const chunk = text.slice(this.start, this.start + cut);
      const open = openFenceAfter(chunk, this.reopen);
      // trimEnd, not replace(/\s+$/): the expression backtracks over each run of spaces that is not at
      // the end, quadratic in its length (a run of 4,000 tabs took seconds).
      let content = prefix + chunk.trimEnd();
      if (open !== '') content += `\n${FENCE.exec(open)?.[1] ?? '```'}`;
      this.settled.push(content);
      this.visited += window.length + chunk.length;
      this.start += cut;
      // The next part starts at its text, not at the blank lines of the cut.
      while (text[this.start] === '\n') this.start++;
      this.reopen = open.slice(0, MAX_REOPEN);
    }
  }
}

/**
 * The contents of the messages an answer takes, each at most `limit` characters. Parts before the
 * last depend only on the text up to their end, so a streamed answer's earlier parts never change
 * once a later part exists.
 *
 * @param text - the whole answer
 * @param limit - the most characters of one message
 * @example splitAnswer(long, 4000) // ['…first part', '…second part']
 */
export function splitAnswer(text: string, limit: number): string[] {
  return new AnswerSplitter(limit).split(text);
}
