import { Command, type CommandContext, type MessageContext, OnMessage, Option } from '@boardbot/core';
import type { AgentDefinition } from '@boardbot/core/agents';
import { jsonSchema, tool } from 'ai';

// What the approval tests share: a write tool that needs approval, and the handlers that ask the agent.

/** A write tool needing approval: posts `📌 text` on the board, under the run's write key; its result `pinned`. */
export const pinTool = (ctx: MessageContext) =>
  tool({
    description: 'Pins a note on the board',
    inputSchema: jsonSchema<{ text: string }>({ type: 'object', properties: { text: { type: 'string' } } }),
    needsApproval: true,
    execute: async ({ text }) => {
      await ctx.send({ content: `📌 ${text}` });
      return 'pinned';
    },
  });

/** The handler that asks `agent` on `@helper`, the message's text as the model's input. */
export function askingHandler(agent: AgentDefinition) {
  class Ask {
    @OnMessage(/@helper\b/)
    answer(ctx: MessageContext) {
      return agent.answer(ctx, [{ role: 'user', content: ctx.message.content ?? '' }]);
    }
  }
  return Ask;
}

class AskOptions {
  @Option({ description: 'What to ask', type: 'string' }) question!: string;
}

/** The command `/ask question:` (also `!ask`) that asks `agent`, the command as typed the model's input. */
export function askingCommand(agent: AgentDefinition) {
  @Command({ name: 'ask', description: 'Asks the helper', options: AskOptions, text: true })
  class Ask {
    run(ctx: CommandContext) {
      return agent.answer(ctx);
    }
  }
  return Ask;
}
