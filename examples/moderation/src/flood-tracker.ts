import { Injectable } from '@boardbot/core';
import { ModerationClock } from './moderation-clock.js';
import { Rules } from './rules.js';

/**
 * Counts each person's recent messages per board in a sliding window. A flood is reported once:
 * the person's count starts over after it.
 */
@Injectable()
export class FloodTracker {
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly rules: Rules,
    private readonly clock: ModerationClock,
  ) {}

  /**
   * Records one message.
   * @returns true when it makes a flood
   */
  record(boardId: string, userId: string): boolean {
    const key = `${boardId}:${userId}`;
    const now = this.clock.now();
    const { messages, windowMs } = this.rules.flood;
    const stamps = (this.recent.get(key) ?? []).filter((t) => now - t < windowMs);
    stamps.push(now);
    if (stamps.length > messages) {
      this.recent.delete(key);
      return true;
    }
    this.recent.set(key, stamps);
    return false;
  }
}
