/** Warnings each person received, per board (kept in memory). */
export class Strikes {
  private readonly counts = new Map<string, number>();

  /** Adds a strike; returns the new count. */
  add(boardId: string, userId: string): number {
    const n = this.count(boardId, userId) + 1;
    this.counts.set(`${boardId}:${userId}`, n);
    return n;
  }

  /** A person's strikes on a board. */
  count(boardId: string, userId: string): number {
    return this.counts.get(`${boardId}:${userId}`) ?? 0;
  }

  /** Forgets a person's strikes on a board; returns how many there were. */
  clear(boardId: string, userId: string): number {
    const n = this.count(boardId, userId);
    this.counts.delete(`${boardId}:${userId}`);
    return n;
  }
}
