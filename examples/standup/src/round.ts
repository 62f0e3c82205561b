import { defineSession } from '@boardbot/core';
import { IsBoolean, IsString } from 'class-validator';

/**
 * A board's standup: whether the reminder is on, and the updates given since the last reminder
 * (each reminder opens a new round). Kept in the session store, so it survives a restart and is
 * shared by every instance of the bot.
 */
export class Round {
  @IsBoolean()
  on = false;

  @IsString({ each: true })
  updates: string[] = [];
}

/** The standup of a board (no expiry to speak of: a quiet board keeps its setting for a year). */
export const Rounds = defineSession(Round, { per: 'board', ttlMs: 365 * 24 * 60 * 60 * 1000 });
