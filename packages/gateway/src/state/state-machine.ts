import { GatewayInternalError } from '../errors.js';
import type { GatewayState } from '../types.js';

// The only moves the client makes; anything else is a bug in the client, caught here.
const TRANSITIONS: Record<GatewayState, readonly GatewayState[]> = {
  idle: ['connecting', 'closed'],
  connecting: ['open', 'reconnecting', 'closed'],
  open: ['reconnecting', 'closed'],
  reconnecting: ['connecting', 'closed'],
  closed: [],
};

/** The connection state of a `GatewayClient`, with its legal transitions. */
export class StateMachine {
  #state: GatewayState = 'idle';

  /** The current state. */
  get state(): GatewayState {
    return this.#state;
  }

  /**
   * Moves to `next`.
   *
   * @param next - The new state.
   * @throws GatewayInternalError when the move is not one of the client's transitions (a client bug).
   */
  to(next: GatewayState): void {
    if (!TRANSITIONS[this.#state].includes(next)) {
      throw new GatewayInternalError(this.#state, next);
    }
    this.#state = next;
  }
}
