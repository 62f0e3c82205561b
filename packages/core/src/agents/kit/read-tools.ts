import type { Message } from '@boardbot/protocol';
import { isAnswerWriting } from '@boardbot/protocol/runtime';
import { findThread, searchMessages } from '@boardbot/rest';
import type { Tool } from 'ai';
import type { KitTurn } from './kit-turn.js';
import { messageView } from './message-view.js';

/** What the read tools of a turn are made from. */
export interface KitReadDeps {
  turn: KitTurn;
  /** The board and message that asked: what a tool reads when the model names none. */
  here: { boardId: string; messageId: string };
  bounds: { maxMessages: number; maxChars: number; maxScan: number; maxMembers: number };
  /** The AI SDK's `tool` and `jsonSchema`, loaded once per turn. */
  ai: Pick<typeof import('ai'), 'tool' | 'jsonSchema'>;
}

type Input = Record<string, unknown>;
type Props = Record<string, Record<string, unknown>>;

/** One of the kit's tools, its input a JSON Schema object (no zod needed). */
export function kitTool(
  ai: KitReadDeps['ai'],
  description: string,
  properties: Props,
  execute: (input: Input) => Promise<unknown>,
  extra: { required?: string[]; needsApproval?: boolean } = {},
): Tool<Input, unknown> {
  const schema = { type: 'object', properties, required: extra.required ?? [], additionalProperties: false };
  return ai.tool<Input, unknown>({
    description,
    inputSchema: ai.jsonSchema<Input>(schema as Parameters<typeof ai.jsonSchema>[0]),
    ...(extra.needsApproval !== undefined && { needsApproval: extra.needsApproval }),
    execute,
  });
}

/** Leaves out answers still being written (this turn's own, among them): a placeholder tells the model nothing. */
const written = (messages: readonly Message[]) => messages.filter((m) => !isAnswerWriting(m.content));

/** The `board_id` property: any board the asking person is a member of, the current one by default. */
export const BOARD = {
  type: 'string',
  description: 'A board id; only boards the asking person is a member of. Default: the board they asked on.',
} as const;

/**
 * The kit's read tools: the thread, recent messages, a bounded search, members, a profile. Each
 * opens only a board the asking person is a member of, and gives at most the kit's bounds.
 * @param deps - the turn, where it was asked, the bounds, the AI SDK
 */
export function readTools(deps: KitReadDeps): Record<string, Tool<Input, unknown>> {
  const { turn, here, bounds, ai } = deps;
  const boardOf = (input: Input) => (typeof input.board_id === 'string' ? input.board_id : here.boardId);
  const scanOf = (input: Input) =>
    Math.min(typeof input.scan === 'number' ? input.scan : bounds.maxScan, bounds.maxScan);
  const SCAN = {
    type: 'integer',
    minimum: 1,
    maximum: bounds.maxScan,
    description: `Most messages read back from the newest (default and most: ${bounds.maxScan})`,
  };
  return {
    read_thread: kitTool(
      ai,
      'The thread (reply chain) of a message, oldest first: by default the message the person asked with. ' +
        `The board is read back at most ${bounds.maxScan} messages; "complete: false" means the start was older.`,
      {
        board_id: BOARD,
        message_id: { type: 'string', description: 'A message of the thread (default: the asking one)' },
      },
      async (input) => {
        const boardId = boardOf(input);
        const members = await turn.open('read_thread', boardId);
        const messageId = typeof input.message_id === 'string' ? input.message_id : here.messageId;
        const found = await findThread(turn.rest, boardId, messageId, bounds.maxScan);
        const all = written(found.messages);
        const messages = all.slice(-bounds.maxMessages);
        return {
          found: found.found,
          complete: found.complete && messages.length === all.length,
          scanned: found.scanned,
          messages: messages.map((m) => messageView(m, members, bounds.maxChars)),
        };
      },
    ),
    read_messages: kitTool(
      ai,
      `A board's newest messages, newest first (at most ${bounds.maxMessages}).`,
      { board_id: BOARD, limit: { type: 'integer', minimum: 1, maximum: bounds.maxMessages } },
      async (input) => {
        const boardId = boardOf(input);
        const members = await turn.open('read_messages', boardId);
        const limit = Math.min(typeof input.limit === 'number' ? input.limit : bounds.maxMessages, bounds.maxMessages);
        const messages: Message[] = [];
        // Read on past answers still being written, within the scan bound, so `limit` are given.
        for await (const m of turn.rest.iterateMessages(boardId, { max: bounds.maxScan, pageSize: limit + 1 })) {
          if (isAnswerWriting(m.content)) continue;
          messages.push(m);
          if (messages.length >= limit) break;
        }
        return { messages: messages.map((m) => messageView(m, members, bounds.maxChars)) };
      },
    ),
    search_messages: kitTool(
      ai,
      'Messages of a board whose text contains `text` (case-insensitive), newest first. The platform has no ' +
        'search: the newest messages are read back, at most `scan`, and the result says how many were read ' +
        '(`scanned`); an older message is not found.',
      { board_id: BOARD, text: { type: 'string', minLength: 1, maxLength: 200 }, scan: SCAN },
      async (input) => {
        const boardId = boardOf(input);
        const members = await turn.open('search_messages', boardId);
        const text = String(input.text ?? '');
        const found = await searchMessages(turn.rest, boardId, text, {
          maxScan: scanOf(input),
          limit: bounds.maxMessages,
        });
        const messages = written(found.matches).map((m) => messageView(m, members, bounds.maxChars));
        return { scanned: found.scanned, more: found.more, messages };
      },
      { required: ['text'] },
    ),
    list_members: kitTool(
      ai,
      `A board's members (at most ${bounds.maxMembers}): user id, username, display name, role, whether a bot.`,
      { board_id: BOARD },
      async (input) => {
        const members = await turn.open('list_members', boardOf(input));
        return {
          count: members.length,
          members: members.slice(0, bounds.maxMembers).map(({ user, role }) => ({
            user_id: user.id,
            username: user.username,
            display_name: user.display_name,
            role,
            is_bot: user.is_bot,
          })),
        };
      },
    ),
    get_user: kitTool(
      ai,
      "A member's profile: username, display name, whether a bot. Only people of a board the asking person is on.",
      { user_id: { type: 'string' }, board_id: BOARD },
      async (input) => {
        const members = await turn.open('get_user', boardOf(input));
        const member = members.find((m) => m.user.id === input.user_id);
        if (!member) return { found: false };
        const user = await turn.rest.getUser(member.user.id);
        return {
          found: true,
          user_id: user.id,
          username: user.username,
          display_name: user.display_name,
          is_bot: user.is_bot,
        };
      },
      { required: ['user_id'] },
    ),
  };
}
