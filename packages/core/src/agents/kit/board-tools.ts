import type { Tool } from 'ai';
import { BotStateError } from '../../errors.js';
import type { MessageContext } from '../../listeners/context.js';
import { askingTurn } from '../asking-turns.js';
import { type BoardKitOptions, resolveKitOptions } from './kit-options.js';
import { KitTurn } from './kit-turn.js';
import { readTools } from './read-tools.js';
import { writeTools } from './write-tools.js';

/** A board kit's tool: its input the model's arguments, its result JSON the model reads. */
export type BoardKitTool = Tool<Record<string, unknown>, unknown>;

/**
 * A board kit for an assistant's model (AI SDK tools, `ai` 6 and 7), acting for the person who asked
 * (the author of `ctx.message`):
 *
 * - reads: `read_thread` (the asking message's thread by default), `read_messages` (a board's newest),
 *   `search_messages` (a scan of at most `maxScan` newest messages, saying how many it read: the
 *   platform has no search), `list_members`, `get_user`;
 * - writes: `send_message`, and `edit_message` and `delete_message` of the app's own messages.
 *
 * Every tool opens only a board the asking person is a member of (read through the app's client
 * once per board and turn): a private board the bot is on stays closed to a person who is not, and
 * the model is told so as the tool's error (`BOARDBOT_BOARD_NOT_OPEN`). Results are bounded (messages
 * per read, characters per message, members). Writes are bounded per turn (`maxWrites`, then
 * `BOARDBOT_TOOL_WRITES_SPENT`), each keyed from the turn's event and its place among the turn's
 * writes, so a turn handled again writes nothing twice; and they need a person's approval by default
 * (`needsApproval`).
 *
 * Needs the `agents()` plugin and `ai` (an optional peer dependency, loaded here).
 *
 * @param ctx - the asking person's message context (the assistant's `@OnMessage` handler's)
 * @param options - bounds, approval, whether to write
 * @returns the tools, by name, for `streamText({ tools })` or `generateText({ tools })`
 * @throws BotStateError without `agents()` or for a webhook's message; InvalidOptionError for a bound out of range
 * @example
 * const tools = { ...(await boardTools(ctx, { needsApproval: false })), ...(await commandTools(ctx, [Roll])) };
 */
export async function boardTools(
  ctx: MessageContext,
  options: BoardKitOptions = {},
): Promise<Record<string, BoardKitTool>> {
  const o = resolveKitOptions(options);
  const asking = askingTurn(ctx);
  if (asking === undefined) {
    throw new BotStateError(
      'boardTools(ctx) needs the agents() plugin (createBot({ plugins: [agents()] })) and the context of a running handler.',
    );
  }
  const asker = ctx.author;
  if (asker === null) throw new BotStateError('boardTools(ctx) needs a message from a person (not a webhook).');
  const { jsonSchema, tool } = await import('ai');
  const deps = {
    turn: new KitTurn(ctx.rest, asking.run, asker.id, o.maxWrites),
    here: { boardId: ctx.boardId, messageId: ctx.message.id },
    bounds: { maxMessages: o.maxMessages, maxChars: o.maxChars, maxScan: o.maxScan, maxMembers: o.maxMembers },
    ai: { jsonSchema, tool },
  };
  return { ...readTools(deps), ...(o.writes ? writeTools(deps, o.needsApproval) : {}) };
}
