import { readEnvironment } from './environment.js';

/** The state directory a bot uses when none is given: `BOARDBOT_STATE_DIR`, else `.boardbot`. */
export function defaultStateDir(): string {
  return readEnvironment().BOARDBOT_STATE_DIR ?? '.boardbot';
}
