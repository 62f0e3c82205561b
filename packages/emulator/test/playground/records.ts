import type { InteractionView } from '@boardbot/emulator/control';
import { interaction as invoked } from '@boardbot/test-support';

/**
 * How the control API shows interaction `n` (alice's `/roll` on the test records' board, invoked at
 * `at(seconds)`): still waiting, with no answer yet.
 * @param n - which one (its id is derived from it)
 * @param seconds - when it was invoked, from the start
 * @param fields - fields of the view to set instead
 */
export function interaction(n: number, seconds: number, fields: Partial<InteractionView> = {}): InteractionView {
  // The control API never shows an interaction's token.
  const { token: _token, ...shown } = invoked(n, seconds);
  return { interaction: shown, status: 'pending', answers: [], ...fields };
}
