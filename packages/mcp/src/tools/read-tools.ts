import { LIMITS } from '@boardbot/protocol/runtime';
import { findThread, type RestClient, searchMessages } from '@boardbot/rest';
import { Type } from '@sinclair/typebox';
import { boardShape, memberShape, messageShape, personShape } from './shapes.js';
import { type BoardTool, defineTool, Id } from './tool.js';

const READ = { readOnlyHint: true, idempotentHint: true } as const;
const MaxScan = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 10_000, description: 'Most messages read back (default: the server’s)' }),
);

/** Display names by user id, from the board's members (one call, where a read per author would be many). */
async function namesOn(rest: RestClient, boardId: string): Promise<Map<string, string>> {
  const members = await rest.listMembers(boardId);
  return new Map(members.map((m) => [m.user.id, m.user.display_name]));
}

/** The tools that read: what the app can see, on the boards it is installed on. */
export const READ_TOOLS: readonly BoardTool[] = [
  defineTool({
    name: 'list_boards',
    description: 'The boards the app is installed on: id, name, description, member count.',
    input: Type.Object({}, { additionalProperties: false }),
    writes: false,
    hints: READ,
    call: async (_args, { rest }) => ({ boards: (await rest.listBoards()).map(boardShape) }),
  }),
  defineTool({
    name: 'list_members',
    description: "A board's members: user id, username, display name, role, whether a bot.",
    input: Type.Object({ board_id: Id('The board') }, { additionalProperties: false }),
    writes: false,
    hints: READ,
    call: async ({ board_id }, { rest }) => ({ members: (await rest.listMembers(board_id)).map(memberShape) }),
  }),
  defineTool({
    name: 'read_messages',
    description:
      "A board's messages, newest first, each with its author's name, content and what it replies to. " +
      'Page back with `before` (the lowest `seq` of the page).',
    input: Type.Object(
      {
        board_id: Id('The board'),
        before: Type.Optional(Type.Integer({ minimum: 1, description: 'Only messages whose seq is below this' })),
        limit: Type.Optional(
          Type.Integer({ minimum: 1, maximum: LIMITS.listMax, default: 20, description: 'How many messages' }),
        ),
      },
      { additionalProperties: false },
    ),
    writes: false,
    hints: READ,
    call: async ({ board_id, before, limit }, { rest }) => {
      const [messages, names] = await Promise.all([
        rest.listMessages(board_id, { ...(before !== undefined && { before }), limit: limit ?? 20 }),
        namesOn(rest, board_id),
      ]);
      return { messages: messages.map((m) => messageShape(m, names)) };
    },
  }),
  defineTool({
    name: 'read_thread',
    description:
      'The thread a message belongs to: its first message and every reply to it or to its replies, oldest ' +
      'first. The platform has no thread API: the board is read back from its newest message, at most ' +
      '`max_scan` messages, so an old thread may come back without its start.',
    input: Type.Object(
      {
        board_id: Id('The board'),
        message_id: Id('A message of the thread'),
        max_scan: MaxScan,
      },
      { additionalProperties: false },
    ),
    writes: false,
    hints: READ,
    call: async ({ board_id, message_id, max_scan }, { rest, maxScan }) => {
      const thread = await findThread(rest, board_id, message_id, Math.min(max_scan ?? maxScan, maxScan));
      if (!thread.found) return { found: false, scanned: thread.scanned };
      const names = await namesOn(rest, board_id);
      const messages = thread.messages.map((m) => messageShape(m, names));
      return { found: true, root_id: thread.rootId, complete: thread.complete, scanned: thread.scanned, messages };
    },
  }),
  defineTool({
    name: 'search_messages',
    description:
      'Messages of a board whose text contains `text` (case-insensitive), newest first. The platform has no ' +
      'search API: the board is read back from its newest message, at most `max_scan` messages, and the ' +
      'result says how many were read.',
    input: Type.Object(
      {
        board_id: Id('The board'),
        text: Type.String({ minLength: 1, maxLength: 200, description: 'What to look for' }),
        max_scan: MaxScan,
      },
      { additionalProperties: false },
    ),
    writes: false,
    hints: READ,
    call: async ({ board_id, text, max_scan }, { rest, maxScan }) => {
      const bounds = { maxScan: Math.min(max_scan ?? maxScan, maxScan), limit: LIMITS.listMax };
      const [found, names] = await Promise.all([searchMessages(rest, board_id, text, bounds), namesOn(rest, board_id)]);
      return { scanned: found.scanned, more: found.more, messages: found.matches.map((m) => messageShape(m, names)) };
    },
  }),
  defineTool({
    name: 'get_user',
    description: "A person's public profile: username, display name, whether a bot.",
    input: Type.Object({ user_id: Id('The person') }, { additionalProperties: false }),
    writes: false,
    hints: READ,
    call: async ({ user_id }, { rest }) => personShape(await rest.getUser(user_id)),
  }),
  defineTool({
    name: 'get_app',
    description: 'The app this server acts as: its id, name, and the user id that authors its messages.',
    input: Type.Object({}, { additionalProperties: false }),
    writes: false,
    hints: READ,
    call: async (_args, { rest }) => {
      const app = await rest.getApp();
      return { id: app.id, name: app.name, description: app.description, bot_user_id: app.bot_user_id };
    },
  }),
];
