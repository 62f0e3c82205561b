import type { Interaction, Message, ReadyEvent } from '@boardbot/protocol';

// Payloads shaped exactly as the contract sends them, for the scripted servers.
export const ids = {
  board: '0196a8f0-0000-7000-8000-000000000001',
  user: '0196a8f0-0000-7000-8000-000000000002',
  bot: '0196a8f0-0000-7000-8000-000000000003',
  app: '0196a8f0-0000-7000-8000-000000000004',
  interaction: '0196a8f0-0000-7000-8000-000000000006',
};
const at = '2026-11-21T10:00:00.000Z';

/** A message with sequence number `seq` (its id is derived from it). */
export function message(seq: number, content = `message ${seq}`): Message {
  return {
    id: `0196a8f0-0000-7000-8000-${seq.toString(16).padStart(12, '0')}`,
    board_id: ids.board,
    author: ids.user,
    kind: 'default',
    content,
    media: null,
    embeds: null,
    webhook_name: null,
    reply_to: null,
    seq,
    created_at: at,
    edited_at: null,
    deleted_at: null,
    interaction: null,
  };
}

/** The `ready` payload. */
export function ready(extra: Partial<ReadyEvent> = {}): ReadyEvent {
  return {
    type: 'ready',
    app: { id: ids.app, name: 'dev-bot', description: null, bot_user_id: ids.bot, created_at: at },
    board_ids: [ids.board],
    resumed: false,
    ...extra,
  };
}

/** An interaction. */
export function interaction(): Interaction {
  return {
    id: ids.interaction,
    type: 'command',
    token: 't'.repeat(43),
    app_id: ids.app,
    board_id: ids.board,
    user: { id: ids.user, username: 'alice', display_name: 'Alice', avatar_url: null, is_bot: false, created_at: at },
    command: { name: 'roll', subcommand: null, options: { sides: 20 } },
    created_at: at,
    expires_at: '2026-11-21T10:15:00.000Z',
  };
}

/** One SSE frame, as the contract writes it. */
export function frame(id: number | string, name: string, data: unknown): string {
  return `id: ${id}\nevent: ${name}\ndata: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** A `message.create` frame for message `seq` with event id `id`. */
export function messageFrame(id: number, seq = id): string {
  return frame(id, 'message.create', { type: 'message.create', message: message(seq) });
}

/** A `ready` frame. */
export function readyFrame(id: number | string, extra: Partial<ReadyEvent> = {}): string {
  return frame(id, 'ready', ready(extra));
}
