/**
 * How far the resume point trails what was received: in events (the newest received id minus the
 * resume point) and in seconds (how long ago the oldest event past the resume point arrived). Keeps
 * the receipt time of each event past the resume point only, pruned as the point moves.
 */
export class PositionLag {
  private ids: number[] = [];
  private times: number[] = [];
  private head = 0;
  private newest = 0;

  /**
   * An event arrived.
   * @param id - its gateway id (decimal)
   * @param at - when (epoch ms)
   * @param resumePoint - the resume point now
   */
  received(id: string, at: number, resumePoint: string | undefined): void {
    const n = Number(id);
    if (!Number.isFinite(n)) return;
    if (n > this.newest) this.newest = n;
    this.ids.push(n);
    this.times.push(at);
    this.prune(resumePoint);
  }

  /** @param resumePoint - the resume point now */
  events(resumePoint: string | undefined): number {
    const point = resumePoint === undefined ? this.newest : Number(resumePoint);
    return Math.max(0, this.newest - point);
  }

  /**
   * @param resumePoint - the resume point now
   * @param now - epoch ms
   */
  seconds(resumePoint: string | undefined, now: number): number {
    this.prune(resumePoint);
    const oldest = this.times[this.head];
    return oldest === undefined ? 0 : Math.max(0, (now - oldest) / 1000);
  }

  private prune(resumePoint: string | undefined): void {
    if (resumePoint === undefined) return;
    const point = Number(resumePoint);
    while (this.head < this.ids.length && (this.ids[this.head] as number) <= point) this.head++;
    // Compact once the dropped prefix is most of the arrays, so memory follows what is in flight.
    if (this.head > 1024 && this.head * 2 > this.ids.length) {
      this.ids = this.ids.slice(this.head);
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }
}
