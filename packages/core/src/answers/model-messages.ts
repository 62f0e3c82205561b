import { ANSWER_CURSOR, ANSWER_PLACEHOLDER } from '@boardbot/protocol/runtime';
import type { Thread } from './thread.js';

/**
 * A message of a model's input, as the AI SDK's `ModelMessage` (`ai` 6 and 7) takes it: the bot's
 * own messages are the assistant's, everyone else's the user's, named in the text. Structural, so
 * core does not depend on `ai`; a type test checks it is assignable to `ModelMessage` of each major.
 */
export type ThreadModelMessage = { role: 'user'; content: string } | { role: 'assistant'; content: string };

/**
 * Turns a thread (`ctx.thread()`) into a model's input: `assistant` for the bot's messages, `user`
 * for the others with the author's name before the text (`Alice: …`), oldest first; messages
 * without text (embeds only) are left out. An answer of the bot's still being written goes in as
 * the text it has so far, without the streaming cursor, and one that shows only the placeholder is
 * left out: a question asked while the previous answer streams must not teach the model to write
 * `▍` or `…`.
 *
 * @param thread - the thread
 * @example const { textStream } = streamText({ model, messages: toModelMessages(await ctx.thread()) });
 */
export function toModelMessages(thread: Thread): ThreadModelMessage[] {
  const out: ThreadModelMessage[] = [];
  for (const { message, authorName, own } of thread.messages) {
    const text = own ? answerSoFar(message.content ?? '') : (message.content ?? '');
    if (text === '') continue;
    out.push(own ? { role: 'assistant', content: text } : { role: 'user', content: `${authorName}: ${text}` });
  }
  return out;
}

/** An answer's text without what marks it as still being written. */
function answerSoFar(content: string): string {
  if (content === ANSWER_PLACEHOLDER) return '';
  return content.endsWith(ANSWER_CURSOR) ? content.slice(0, -ANSWER_CURSOR.length) : content;
}
