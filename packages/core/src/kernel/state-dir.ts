/** The state directory a bot uses when none is given: `BOARDBOT_STATE_DIR`, else `.boardbot`. */
export function defaultStateDir(): string {
  return process.env.BOARDBOT_STATE_DIR ?? '.boardbot';
}
