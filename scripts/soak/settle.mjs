// The run of a soak: its slices one after the other, then the end (the operations in flight end,
// the bots' last answers land and are counted on the platform). Shared by soak.mjs and host-soak.mjs.

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

/**
 * Calls `operate` `rate` times a second, evenly, every `tickMs` (a fraction owed carries to the next
 * tick); the interval is returned for the run to clear when the traffic stops.
 * @param rate - operations per second
 * @param tickMs - how often the operations owed go out
 * @param operate - starts one operation
 */
export function steadyTraffic(rate, tickMs, operate) {
  let owed = 0;
  return setInterval(() => {
    owed += (rate * tickMs) / 1000;
    for (; owed >= 1; owed--) operate();
  }, tickMs);
}

/**
 * Runs the soak's slices to the end: waits for each slice's end (`started` + its share of `runMs`,
 * by `performance.now()`), calls `lastSlice()` before closing the last one (the traffic stops) and
 * `closeSlice(i)` at each end.
 * @param timing - `{ started, runMs, sliceMs }`, in milliseconds
 * @param steps - `{ closeSlice(i): Promise<void>, lastSlice(): void }`
 */
export async function runSlices({ started, runMs, sliceMs }, { closeSlice, lastSlice }) {
  const sliceCount = Math.ceil(runMs / sliceMs);
  for (let i = 0; i < sliceCount; i++) {
    const end = started + Math.min((i + 1) * sliceMs, runMs);
    await pause(Math.max(0, end - performance.now()));
    if (i === sliceCount - 1) lastSlice();
    await closeSlice(i);
  }
}

/**
 * Every bot answer on the boards, counted by its text: the messages of each board's bot that match
 * `pattern` (whole), read back page by page through the control API.
 * @param control - the emulator's control client
 * @param boards - `{ id, bot }`: each board and the bot user whose answers count there
 * @param pattern - what an answer looks like (`/^(echo|pong) (\S+)$/`)
 */
export async function countAnswers(control, boards, pattern) {
  const counts = new Map();
  for (const { id, bot } of boards) {
    let before;
    for (;;) {
      const page = await control.messages(id, { limit: 100, ...(before === undefined ? {} : { before }) });
      if (page.length === 0) break;
      for (const m of page) {
        const found = pattern.exec(m.content ?? '');
        if (found && m.author === bot) counts.set(found[0], (counts.get(found[0]) ?? 0) + 1);
      }
      before = Math.min(...page.map((m) => m.seq));
      if (page.length < 100) break;
    }
  }
  return counts;
}
