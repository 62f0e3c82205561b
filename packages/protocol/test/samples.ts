// Valid samples of every record, shaped exactly as the contract sends them.
export const ids = {
  board: '0196a8f0-0000-7000-8000-000000000001',
  user: '0196a8f0-0000-7000-8000-000000000002',
  bot: '0196a8f0-0000-7000-8000-000000000003',
  app: '0196a8f0-0000-7000-8000-000000000004',
  message: '0196a8f0-0000-7000-8000-000000000005',
  interaction: '0196a8f0-0000-7000-8000-000000000006',
  command: '0196a8f0-0000-7000-8000-000000000007',
};
const at = '2026-11-21T10:00:00.000Z';

export const board = { id: ids.board, name: 'general', description: null, created_at: at, member_count: 3 };
export const user = {
  id: ids.user,
  username: 'alice',
  display_name: 'Alice',
  avatar_url: null,
  is_bot: false,
  created_at: at,
};
export const member = { user, role: 'member', joined_at: at };
export const app = { id: ids.app, name: 'dev-bot', description: null, bot_user_id: ids.bot, created_at: at };
export const message = {
  id: ids.message,
  board_id: ids.board,
  author: ids.user,
  kind: 'default',
  content: 'hello',
  media: null,
  embeds: null,
  webhook_name: null,
  reply_to: null,
  seq: 1,
  created_at: at,
  edited_at: null,
  deleted_at: null,
  interaction: null,
};
export const command = {
  id: ids.command,
  name: 'roll',
  description: 'Roll a die',
  options: [{ name: 'sides', description: 'Sides', type: 'integer', required: false, min_value: 2, max_value: 1000 }],
  updated_at: at,
};
export const interaction = {
  id: ids.interaction,
  type: 'command',
  token: 'x'.repeat(43),
  app_id: ids.app,
  board_id: ids.board,
  user,
  command: { name: 'roll', subcommand: null, options: { sides: 20 } },
  created_at: at,
  expires_at: '2026-11-21T10:15:00.000Z',
};
