// The end of a soak: the operations in flight end, then the bot's last answers land. Shared by
// soak.mjs and host-soak.mjs.

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Counts the answers until two counts a second apart agree and none is missing, or agree after
 * `patience` tries (a lost answer never lands), or `tries` run out.
 * @param count - reads the answers: a map of answer text to how many times it was posted
 * @param expected - a map whose keys are the answers expected
 * @param options - `{ inFlight: () => number, tries, patience }`
 */
export async function settledCounts(count, expected, { inFlight, tries, patience }) {
  while (inFlight() > 0) await pause(100);
  let counts = await count();
  for (let i = 0; i < tries; i++) {
    await pause(1000);
    const again = await count();
    const missing = [...expected.keys()].filter((k) => !again.has(k)).length;
    const same = again.size === counts.size && [...again].every(([k, v]) => counts.get(k) === v);
    counts = again;
    if (same && (missing === 0 || i >= patience)) break;
  }
  return counts;
}

/**
 * A slice's answers, lost and doubled among the expected answers `keys`.
 * @param keys - the answers the slice expected
 * @param counts - what {@link settledCounts} read
 */
export function tally(keys, counts) {
  return {
    answers: keys.filter((k) => counts.has(k)).length,
    lost: keys.filter((k) => !counts.has(k)).length,
    doubled: keys.filter((k) => (counts.get(k) ?? 0) > 1).length,
  };
}
