import type { SessionStore } from '../sessions/session-store.js';
import { changeValue, readValue } from './approval-store.js';

/** One tool call a turn made, recorded once it returned. */
export interface DoneCall {
  /** The tool's name and its input as JSON: a later call at the same place must be the same call. */
  tool: string;
  input: string;
  /** What it returned (the model's tool result). */
  output: unknown;
}

/** The store key of a turn's done calls. */
const doneKey = (agent: string, turnId: string): string => `agent:${agent}:turn:${turnId}:calls`;

/**
 * The record of a turn's tool calls, by their place in the turn (its 1st, 2nd... call, across its
 * suspensions): each is recorded, with its result, as soon as it returns and before the turn's next
 * call is tried. A turn run again (its event handled again after a crash, perhaps more than a day
 * later, when the platform has forgotten the writes' idempotency keys) finds the calls already made
 * and gives the model their results without running them again: each thing is written once.
 */
export class TurnWrites {
  /**
   * @param store - the bot's session store, shared by its replicas
   * @param agent - the agent's name
   * @param turnId - the turn's id: the asking message's
   * @param keepMs - how long the record is kept after each call
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
    const { value } = await readValue<Record<string, DoneCall>>(this.store, this.key, this.now());
    const call = value?.[String(place)];
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
    await changeValue<Record<string, DoneCall>>(
      this.store,
      this.key,
      (calls = {}) => ({ ...calls, [String(place)]: call }),
      () => this.now() + this.keepMs,
      this.now,
    );
  }

  private get key(): string {
    return doneKey(this.agent, this.turnId);
  }
}
