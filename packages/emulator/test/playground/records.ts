import type { Command, InteractionView, Message } from '@boardbot/emulator/control';

// Plain records in the contract's shapes for the page's pure logic tests (the browser tests use the
// real emulator). Ids are fixed UUIDs so failures read well.

/** A UUID whose last block is `n`. */
export function uuid(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

/** An RFC 3339 time `seconds` after 10:00 on a fixed day. */
export function at(seconds: number): string {
  return new Date(Date.UTC(2026, 10, 21, 10, 0, seconds)).toISOString();
}

export const BOARD = uuid(100);
export const ALICE = uuid(1);
export const BOT = uuid(2);
export const APP = uuid(3);

/** A message of {@link BOARD}. */
export function message(seq: number, fields: Partial<Message> = {}): Message {
  return {
    id: uuid(1000 + seq),
    board_id: BOARD,
    author: ALICE,
    kind: 'default',
    content: `message ${seq}`,
    media: null,
    embeds: null,
    webhook_name: null,
    reply_to: null,
    seq,
    created_at: at(seq * 10),
    edited_at: null,
    deleted_at: null,
    interaction: null,
    ...fields,
  };
}

/** An interaction of alice on {@link BOARD}, invoked at `at(seconds)`, expiring 15 minutes later. */
export function interaction(n: number, seconds: number, fields: Partial<InteractionView> = {}): InteractionView {
  return {
    interaction: {
      id: uuid(2000 + n),
      type: 'command',
      app_id: APP,
      board_id: BOARD,
      user: {
        id: ALICE,
        username: 'alice',
        display_name: 'Alice',
        avatar_url: null,
        is_bot: false,
        created_at: at(0),
      },
      command: { name: 'roll', subcommand: null, options: { sides: 20 } },
      created_at: at(seconds),
      expires_at: at(seconds + 15 * 60),
    },
    status: 'pending',
    answers: [],
    ...fields,
  };
}

/** A registered command. */
export function command(name: string, options: Command['options']): Command {
  return { id: uuid(3000), name, description: `The ${name} command`, options, updated_at: at(0) };
}
