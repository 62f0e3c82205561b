import type { StateAdapter } from 'chat';

/**
 * The adapter's resume point, in Chat's state adapter: the id of the last event up to which every
 * event was handled (the gateway's `Last-Event-ID` on the next start), a marker for each event
 * handled while an earlier one was still running (Chat runs threads at once), so a replay after a
 * crash skips it, and the threads of the events being handled, whose locks a process that died
 * mid-event leaves behind.
 */
export class Progress {
  // Events read and not yet behind the mark, in the order they arrived.
  private readonly open: { id: string; done: boolean }[] = [];
  // Writes of the mark, one after the other, so the last written is the furthest.
  private writes: Promise<void> = Promise.resolve();
  // The thread of each event handed to Chat and not settled.
  private readonly running = new Map<string, string>();
  private runningWrites: Promise<void> = Promise.resolve();

  private constructor(
    private readonly state: StateAdapter,
    private readonly prefix: string,
    private readonly ttlMs: number,
    private mark: string | undefined,
  ) {}

  /**
   * Reads the stored resume point.
   * @param state - Chat's state adapter
   * @param prefix - the app's key prefix
   * @param ttlMs - how long a marker is kept
   */
  static async load(state: StateAdapter, prefix: string, ttlMs: number): Promise<Progress> {
    const mark = await state.get<string>(`${prefix}resume`);
    return new Progress(state, prefix, ttlMs, mark ?? undefined);
  }

  /**
   * The threads a process that stopped mid-event was handling (their Chat locks outlive it, for up to
   * 30 s), read once at start and forgotten.
   */
  async takeAbandoned(): Promise<string[]> {
    const abandoned = await this.state.get<Record<string, string>>(`${this.prefix}running`);
    if (abandoned === null) return [];
    await this.state.delete(`${this.prefix}running`);
    return [...new Set(Object.values(abandoned))];
  }

  /**
   * Records that an event's thread is being handled, before Chat takes its lock.
   * @param id - the event
   * @param threadId - its thread
   */
  handling(id: string, threadId: string): Promise<void> {
    this.running.set(id, threadId);
    return this.saveRunning();
  }

  /**
   * On a first start (no resume point stored yet), stores the live stream's cursor as the resume
   * point, before any event is handed to Chat: a process killed before its first event settles then
   * resumes from there instead of from "now", which would skip what arrived while it was down.
   * @param id - the id of the stream's `ready` event
   */
  async startAt(id: string): Promise<void> {
    if (this.mark !== undefined || id === '') return;
    this.mark = id;
    this.writes = this.writes.catch(() => {}).then(() => this.state.set(`${this.prefix}resume`, id));
    await this.writes;
  }

  /** Where the event stream resumes: every event up to it was handled. */
  get resumeFrom(): string | undefined {
    return this.mark;
  }

  /**
   * Takes an event in, in the order the stream delivers them.
   * @param id - the event's id
   * @returns whether it was handled already (by a process that died before the mark passed it)
   */
  async begin(id: string): Promise<boolean> {
    this.open.push({ id, done: false });
    return (await this.state.get(this.doneKey(id))) !== null;
  }

  /**
   * Marks an event handled: the mark moves past it when every earlier event is handled too, else the
   * event gets a marker of its own.
   * @param id - the event's id
   * @param marked - whether it already has a marker (an event skipped by {@link begin})
   */
  async finish(id: string, marked = false): Promise<void> {
    if (this.running.delete(id)) await this.saveRunning();
    const entry = this.open.find((e) => e.id === id);
    if (entry) entry.done = true;
    const before = this.mark;
    while (this.open[0]?.done) this.mark = this.open.shift()?.id;
    const passed = this.mark !== before && this.open.every((e) => e.id !== id);
    if (!passed && !marked) await this.state.set(this.doneKey(id), true, this.ttlMs);
    if (this.mark !== before) {
      const mark = this.mark as string;
      // A failed write does not stop the later ones, which carry a mark at least as far.
      this.writes = this.writes.catch(() => {}).then(() => this.state.set(`${this.prefix}resume`, mark));
      await this.writes;
    }
  }

  /** Resolves once every write of the mark has been made. */
  settled(): Promise<void> {
    return this.writes.catch(() => {});
  }

  private saveRunning(): Promise<void> {
    const running = Object.fromEntries(this.running);
    this.runningWrites = this.runningWrites
      .catch(() => {})
      .then(() => this.state.set(`${this.prefix}running`, running));
    return this.runningWrites;
  }

  private doneKey(id: string): string {
    return `${this.prefix}done:${id}`;
  }
}
