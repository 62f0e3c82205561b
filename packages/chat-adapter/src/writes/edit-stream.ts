import type { Message as BoardMessage } from '@boardbot/protocol';
import { LIMITS } from '@boardbot/protocol/runtime';
import type { RawMessage, StreamChunk } from 'chat';
import { nextPostKey } from '../intake/event-scope.js';
import type { Poster } from './poster.js';

/** The first post of every part of a streamed answer: fixed, so its keyed post replays as the same message. */
export const STREAM_PLACEHOLDER = '…';

/** How a stream paces its edits. */
export interface EditStreamOptions {
  /** Least time between the starts of two edits of one answer, in ms (Chat's `streamingUpdateIntervalMs`). */
  updateIntervalMs: number;
  /** Stops reading the source when aborted; what arrived is still shown. */
  signal?: AbortSignal | undefined;
}

/**
 * Streams an answer through edits: posts the placeholder (the event's next keyed post), then edits
 * it as text arrives, one edit at a time and at most one per `updateIntervalMs`, each carrying all
 * the text so far, so text that arrives while an edit waits in the rate-limit queue rides with the
 * next one and a slow platform gets fewer, larger edits instead of a backlog. Past the content limit
 * the answer continues in a new message, a reply in the same thread. A final edit shows it whole.
 * @param poster - posts and edits
 * @param threadId - where the answer goes
 * @param source - the text, as Chat SDK hands it (strings, or Markdown chunks)
 * @param options - pacing
 * @returns the answer's first message
 */
export async function streamThroughEdits(
  poster: Poster,
  threadId: string,
  source: AsyncIterable<string | StreamChunk>,
  options: EditStreamOptions,
): Promise<RawMessage<BoardMessage>> {
  const key = nextPostKey();
  const first = await poster.post(threadId, STREAM_PLACEHOLDER, key);
  const parts = [{ raw: first, shown: STREAM_PLACEHOLDER }];
  let text = '';
  let lastEditAt = 0;
  let editing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const flush = async (): Promise<void> => {
    const contents = splitContent(text);
    for (let i = 0; i < contents.length; i++) {
      const content = contents[i] as string;
      let part = parts[i];
      if (part === undefined) {
        // A later part's post is keyed after the first's, the same on every run of the event.
        const raw = await poster.post(
          first.threadId,
          STREAM_PLACEHOLDER,
          key === undefined ? undefined : `${key}.p${i}`,
        );
        part = { raw, shown: STREAM_PLACEHOLDER };
        parts.push(part);
      }
      if (part.shown !== content) {
        lastEditAt = Date.now();
        await poster.edit(part.raw.threadId, part.raw.id, content);
        part.shown = content;
      }
    }
  };
  const schedule = (): void => {
    if (editing !== undefined || timer !== undefined) return;
    const wait = lastEditAt + options.updateIntervalMs - Date.now();
    if (wait > 0) {
      timer = setTimeout(() => {
        timer = undefined;
        schedule();
      }, wait);
      return;
    }
    // A failed edit on the way is not the answer's failure: the final flush shows the text whole, or throws.
    editing = flush()
      .catch(() => {})
      .finally(() => {
        editing = undefined;
        if (splitContent(text).some((c, i) => parts[i]?.shown !== c)) schedule();
      });
  };

  try {
    for await (const chunk of source) {
      if (options.signal?.aborted) break;
      text += typeof chunk === 'string' ? chunk : chunk.type === 'markdown_text' ? chunk.text : '';
      if (text.trim() !== '') schedule();
    }
  } finally {
    clearTimeout(timer);
    timer = undefined;
    await editing;
  }
  // An answer with no text keeps its placeholder.
  if (text.trim() !== '') await flush();
  return first;
}

/**
 * Cuts text into contents the platform takes (at most `LIMITS.contentLength` characters each), at the
 * last line break or space before the limit when there is one.
 * @param text - the whole answer
 */
export function splitContent(text: string): string[] {
  const max = LIMITS.contentLength;
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const cut = Math.max(rest.lastIndexOf('\n', max), rest.lastIndexOf(' ', max));
    const at = cut > max / 2 ? cut : max;
    out.push(rest.slice(0, at));
    rest = rest.slice(at).replace(/^[\n ]/, '');
  }
  out.push(rest);
  return out;
}
