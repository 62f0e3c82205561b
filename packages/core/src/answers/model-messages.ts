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
 * without text (embeds only) are left out.
 *
 * @param thread - the thread
 * @example const { textStream } = streamText({ model, messages: toModelMessages(await ctx.thread()) });
 */
export function toModelMessages(thread: Thread): ThreadModelMessage[] {
  const out: ThreadModelMessage[] = [];
  for (const { message, authorName, own } of thread.messages) {
    const text = message.content ?? '';
    if (text === '') continue;
    out.push(own ? { role: 'assistant', content: text } : { role: 'user', content: `${authorName}: ${text}` });
  }
  return out;
}
