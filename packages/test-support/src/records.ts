import type { Command, Interaction, Message, ReadyEvent, UserProfile } from '@boardbot/protocol';

// Records in the contract's shapes, for scripted servers and pure logic tests (tests against the
// emulator use the records it made). Ids are fixed UUIDs and times fixed instants, so that a failure
// reads the same on every run.

/**
 * A UUID whose last block is `n` in decimal: `uuid(7)` is `00000000-0000-4000-8000-000000000007`.
 * @param n - 0 to 999999999999
 */
export function uuid(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

/**
 * The RFC 3339 time `seconds` after 10:00 UTC on 21 November 2026.
 * @param seconds - from 10:00:00
 */
export function at(seconds: number): string {
  return new Date(Date.UTC(2026, 10, 21, 10, 0, seconds)).toISOString();
}

/** The board the records are on. */
export const BOARD = uuid(100);
/** The person who writes the messages and invokes the commands: alice. */
export const ALICE = uuid(1);
/** The app's bot user. */
export const BOT = uuid(2);
/** The app, `dev-bot`. */
export const APP = uuid(3);

/** Alice's profile. */
export function alice(): UserProfile {
  return { id: ALICE, username: 'alice', display_name: 'Alice', avatar_url: null, is_bot: false, created_at: at(0) };
}

/**
 * Message `seq` of {@link BOARD}, written by alice `seq * 10` seconds after the start.
 * @param seq - its sequence number (its id is derived from it)
 * @param fields - fields to set instead
 */
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

/**
 * Interaction `n`: alice invokes `/roll sides:20` on {@link BOARD}; it expires 15 minutes later.
 * @param n - which one (its id is derived from it)
 * @param seconds - when it was invoked, from the start
 * @param fields - fields to set instead
 */
export function interaction(n = 0, seconds = 0, fields: Partial<Interaction> = {}): Interaction {
  return {
    id: uuid(2000 + n),
    type: 'command',
    token: 't'.repeat(43),
    app_id: APP,
    board_id: BOARD,
    user: alice(),
    command: { name: 'roll', subcommand: null, options: { sides: 20 } },
    created_at: at(seconds),
    expires_at: at(seconds + 15 * 60),
    ...fields,
  };
}

/**
 * The `ready` event of the app `dev-bot`, installed on {@link BOARD}.
 * @param fields - fields to set instead (`resumed`, `gap`...)
 */
export function ready(fields: Partial<ReadyEvent> = {}): ReadyEvent {
  return {
    type: 'ready',
    app: { id: APP, name: 'dev-bot', description: null, bot_user_id: BOT, created_at: at(0) },
    board_ids: [BOARD],
    resumed: false,
    ...fields,
  };
}

/**
 * A registered command.
 * @param name - its name
 * @param options - its options
 */
export function command(name: string, options: Command['options']): Command {
  return { id: uuid(3000), name, description: `The ${name} command`, options, updated_at: at(0) };
}
