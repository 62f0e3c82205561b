import type { SessionStore } from '../sessions/session-store.js';
import { changeValue, readValue } from '../sessions/store-values.js';

/** One tool call a turn made, recorded once it returned. */
export interface DoneCall {
  /** The tool's name and its input as JSON: a later call at the same place must be the same call. */
  tool: string;
  input: string;
  /** What it returned (the model's tool result). */
  output: unknown;
}

/** What the record holds: the calls by their place, and the parts of the turn that ended. */
interface Done {
  calls: Record<string, DoneCall>;
  /** The parts that ended (their answer, or their request for approval, posted), by where each began. */
  ended: number[];
}

/** The store key of a turn's record. */
const doneKey = (agent: string, turnId: string): string => `agent:${agent}:turn:${turnId}`;

/**
 * The record of a turn's writes: its tool calls, by their place in the turn (its 1st, 2nd... call,
 * across its suspensions), each recorded with its result as soon as it returns and before the turn's
 * next call is tried; and each part of the turn (from its start or a resumption to its answer or its
 * next request) once that part's answer was posted. A turn run again (its event handled again after a
 * crash, perhaps more than a day later, when the platform has forgotten the writes' idempotency keys
 * and the stream its answer's record) finds the calls already made and gives the model their results
 * without running them again, and a part that ended is not run again: each thing is written once.
 */
export class TurnWrites {
  /**
   * @param store - the bot's session store, shared by its replicas
   * @param agent - the agent's name
   * @param turnId - the turn's id: the asking message's
   * @param keepMs - how long the record is kept after each write to it
   * @param now - the bot's clock
   */
  constructor(
    private readonly store: SessionStore,
    private readonly agent: string,
    private readonly turnId: string,
    private readonly keepMs: number,
    private readonly now: () => number,
  ) {}

  /**
   * The call made at `place` before, if it was this same call (tool and input).
   * @param place - its place in the turn, from 0
   * @param tool - the tool called now
   * @param input - its input now
   */
  async done(place: number, tool: string, input: unknown): Promise<DoneCall | undefined> {
    const call = (await this.read())?.calls[String(place)];
    return call?.tool === tool && call.input === JSON.stringify(input ?? null) ? call : undefined;
  }

  /**
   * Records a call that returned.
   * @param place - its place in the turn, from 0
   * @param tool - the tool
   * @param input - its input
   * @param output - what it returned
   */
  async record(place: number, tool: string, input: unknown, output: unknown): Promise<void> {
    const call: DoneCall = { tool, input: JSON.stringify(input ?? null), output };
    await this.change((d) => ({ ...d, calls: { ...d.calls, [String(place)]: call } }));
  }

  /**
   * Whether the part of the turn that begins at `part` ended before.
   * @param part - where it begins: the length of its model input (each part's is longer)
   */
  async hasEnded(part: number): Promise<boolean> {
    return (await this.read())?.ended.includes(part) === true;
  }

  /**
   * Records that the part of the turn that begins at `part` ended: its answer (or its request) posted.
   * @param part - where it begins: the length of its model input
   */
  async end(part: number): Promise<void> {
    await this.change((d) => (d.ended.includes(part) ? d : { ...d, ended: [...d.ended, part] }));
  }

  private async read(): Promise<Done | undefined> {
    return (await readValue<Done>(this.store, this.key, this.now())).value;
  }

  private change(change: (done: Done) => Done): Promise<unknown> {
    return changeValue<Done>(
      this.store,
      this.key,
      (done = { calls: {}, ended: [] }) => change(done),
      () => this.now() + this.keepMs,
      this.now,
    );
  }

  private get key(): string {
    return doneKey(this.agent, this.turnId);
  }
}
