// boardbot's convention for an answer still being written (a streamed answer, `ctx.stream`): not a
// rule of the platform, which has no such notion, but what the runtime shows and what the emulator's
// control API, the CLI and the test harness wait past. One definition for all of them.

/** What a streamed answer's message shows before its first text: the first post of every part. */
export const ANSWER_PLACEHOLDER = '…';

/** What ends every edit of a streamed answer but its final one. */
export const ANSWER_CURSOR = ' ▍';

/**
 * Whether a message's content is an answer still being written: the placeholder, or text that ends
 * with the cursor. A streamed answer's final edit has neither.
 * @param content - the message's content
 */
export function isAnswerWriting(content: string | null): boolean {
  return content === ANSWER_PLACEHOLDER || (content?.endsWith(ANSWER_CURSOR) ?? false);
}
