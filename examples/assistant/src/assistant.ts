import { type MessageContext, OnMessage, toModelMessages } from '@boardbot/core';
import { type LanguageModel, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';

/** What the assistant is told before the thread. */
export const SYSTEM =
  'You are the assistant of a chat board. Answer briefly. Use the boardMembers tool when asked who is here.';

/**
 * The assistant: a message that mentions `@assistant` is answered by the model, streamed; the thread
 * (the message's reply chain, or the board's recent messages) is its input; a tool lets it read who
 * is on the board.
 * @param model - any AI SDK language model (a hosted one, or the SDK's mock in tests)
 */
export function assistantOf(model: LanguageModel) {
  class Assistant {
    @OnMessage(/@assistant\b/i)
    async answer(ctx: MessageContext) {
      const boardMembers = tool({
        description: "Lists the board's members by display name",
        inputSchema: z.object({}),
        execute: async () => (await ctx.rest.listMembers(ctx.boardId)).map((m) => m.user.display_name),
      });
      const { textStream } = streamText({
        model,
        system: SYSTEM,
        messages: toModelMessages(await ctx.thread({ limit: 20 })),
        tools: { boardMembers },
        stopWhen: stepCountIs(3),
        abortSignal: ctx.signal,
      });
      await ctx.stream(textStream);
    }
  }
  return Assistant;
}
