import type { Position } from '@boardbot/core';
import type { Redis } from 'ioredis';
import type { Keys } from '../keys.js';
import { POSITION } from '../scripts/feed-scripts.js';
import { resumeAt, resumeBefore } from './entry-id.js';

/** The shared resume point, and the last appended entry the reader checks its appends against. */
export interface SharedPosition extends Position {
  /** The sort key of the last appended entry, '' when nothing was ever appended. */
  appended: string;
}

/**
 * Reads the replicas' resume point: the low-water mark of acknowledged events, not the last appended.
 * Every appended event enters the in-flight set and leaves it when acknowledged, so the gateway
 * resumes before the oldest event whose handlers have not finished; with nothing in flight, after the
 * last appended. If Redis lost data, what it still holds is a point whose effects are known, and the
 * events replayed from there write with the same idempotency keys. Boards' marks (the highest `seq`
 * acknowledged) let a backfill after a gateway gap start where each board was.
 *
 * @param client - the connection
 * @param keys - the bot's keys
 * @param now - this process's clock, for a point never acknowledged
 */
export async function readPosition(client: Redis, keys: Keys, now: number): Promise<SharedPosition> {
  const [first, appended, flatBoards, ackedAt] = (await POSITION.run(
    client,
    [keys.inflight, keys.appended, keys.boards, keys.meta],
    [],
  )) as [string, string, string[], string];
  const boards: Record<string, number> = {};
  for (let i = 0; i + 1 < flatBoards.length; i += 2) boards[flatBoards[i] as string] = Number(flatBoards[i + 1]);
  const eventId = first !== '' ? resumeBefore(first) : appended !== '' ? resumeAt(appended) : undefined;
  return { eventId, boards, savedAt: ackedAt === '' ? now : Number(ackedAt), appended };
}
