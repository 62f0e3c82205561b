import { type MessageContext, OnMessage, toModelMessages } from '@boardbot/core';
import { defineAgent } from '@boardbot/core/agents';
import { type LanguageModel, tool } from 'ai';
import { z } from 'zod';

/**
 * An agent that acts: asked with `@pinner`, it can pin a summary on the board, a write that waits for
 * the asker's approval (reply `yes` or `no` to the bot's request; docs/assistants.md, "Approvals").
 * The wait survives a restart: the turn is kept in the bot's session store, not in memory.
 * @param model - any AI SDK language model (a hosted one, or the SDK's mock in tests)
 * @returns the handler class to add to `handlers` and the plugin to add to `plugins`
 */
export function pinnerOf(model: LanguageModel) {
  const Pinner = defineAgent({
    name: 'pinner',
    model,
    system: 'You summarise the thread. When asked to pin, call pinSummary with a one-line summary.',
    tools: (ctx) => ({
      pinSummary: tool({
        description: 'Pins a one-line summary on the board',
        inputSchema: z.object({ summary: z.string().max(200) }),
        needsApproval: true,
        execute: async ({ summary }) => {
          const pinned = await ctx.send(`📌 ${summary}`);
          return `pinned as message ${pinned.id}`;
        },
      }),
    }),
    progress: (name) => (name === 'pinSummary' ? 'pinning the summary…' : `${name}…`),
  });
  class AskPinner {
    @OnMessage(/@pinner\b/i)
    async answer(ctx: MessageContext) {
      await Pinner.answer(ctx, toModelMessages(await ctx.thread({ limit: 20 })));
    }
  }
  return { handler: AskPinner, plugin: Pinner.plugin, approvals: Pinner.approvals };
}
