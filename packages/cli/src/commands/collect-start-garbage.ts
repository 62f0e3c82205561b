import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Runs one full garbage collection (V8's `gc()`), for `boardbot start` once the bot's entry has
 * loaded and started.
 *
 * Why: starting a bot (loading and compiling some 470 modules, the first calls) allocates fast, and
 * V8 grows its young generation for it (to 16 MB per semi-space on Node 24). An idle bot then
 * allocates nothing, so no collection runs, and on Node 24 V8's memory reducer, which would give
 * that space back, keeps waiting: it judges the allocation rate from the last collection's figures,
 * the start's. One collection here gives back what the start left (about 11 MB on Node 24), at the
 * cost of one pause (25 ms for the dice example). On Node 20 the memory reducer does it within the
 * minute.
 *
 * `gc` is only reachable with `--expose-gc`: the flag is set for the time of creating one context
 * (V8 installs `gc` in contexts made while it is on) and unset again, so neither the bot's global
 * nor a context it makes later gets a `gc`. A process started with `--expose-gc` uses its own.
 */
export function collectStartGarbage(): void {
  let gc = globalThis.gc;
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    try {
      gc = runInNewContext('gc') as NodeJS.GCFunction;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  // A full collection on Node 22 and later. Node 20's V8 runs a young-generation one for any options
  // object (and a bare `gc()` there, at this moment, grows the young generation instead: the start's
  // objects are still young and survive): on Node 20 the memory reducer gives the space back itself.
  gc({ type: 'major', execution: 'sync' });
}
