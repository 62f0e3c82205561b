import { ok, strictEqual } from 'node:assert/strict';
import { randomUUID } from 'node:crypto';

/** Core's `ScheduleClaims` as the checks use it (structurally: test-support does not depend on core). */
export interface ClaimsUnderTest {
  claim(name: string, tick: number, now: number): Promise<boolean>;
  finish(name: string, tick: number): Promise<void>;
  running(name: string, tick: number, now: number, withinMs: number): Promise<boolean>;
  last(name: string): Promise<number | undefined>;
  reach(name: string, tick: number): Promise<void>;
}

/** Builds the claims of one instance of an app, all over the one store under test. */
export type ClaimsFactory = (appId: string, instance: string) => ClaimsUnderTest;

// A minute of the run's own hour, not a fixed date: a store keeps a claim by the real clock (a file's
// sweep, a Redis key's expiry), so a tick fixed in the past would be forgotten once it is a week old.
const TICK = Math.floor(Date.now() / 3_600_000) * 3_600_000;

/**
 * What schedule claims must do over every session store, as named checks that throw when they do
 * not: each store's tests run them all with claims built over that store (`new ScheduleClaims(store,
 * appId, instance)`), so a tick runs once across instances whatever store they share. Each check
 * uses an app of its own.
 */
export const SCHEDULE_CLAIMS_CONTRACT: Record<string, (claims: ClaimsFactory) => Promise<void>> = {
  'gives a tick to exactly one of many instances claiming it at once': async (claims) => {
    const app = randomUUID();
    const won = await Promise.all(
      Array.from({ length: 12 }, (_, i) => claims(app, `i${i}`).claim('digest', TICK, TICK)),
    );
    strictEqual(won.filter(Boolean).length, 1);
  },
  'never gives a tick again, after its run finished or to a restarted instance': async (claims) => {
    const app = randomUUID();
    strictEqual(await claims(app, 'a').claim('digest', TICK, TICK), true);
    await claims(app, 'a').finish('digest', TICK);
    strictEqual(await claims(app, 'a').claim('digest', TICK, TICK + 1), false);
    strictEqual(await claims(app, 'b').claim('digest', TICK, TICK + 1), false);
  },
  'claims each tick, schedule and app apart': async (claims) => {
    const app = randomUUID();
    const c = claims(app, 'a');
    strictEqual(await c.claim('digest', TICK, TICK), true);
    strictEqual(await c.claim('digest', TICK + 60_000, TICK), true);
    strictEqual(await c.claim('report', TICK, TICK), true);
    strictEqual(await claims(randomUUID(), 'a').claim('digest', TICK, TICK), true);
  },
  'tells a run under way: claimed, not finished, and within its time': async (claims) => {
    const app = randomUUID();
    const c = claims(app, 'a');
    strictEqual(await c.running('digest', TICK, TICK, 1000), false);
    await c.claim('digest', TICK, TICK);
    strictEqual(await claims(app, 'b').running('digest', TICK, TICK + 500, 1000), true);
    strictEqual(await c.running('digest', TICK, TICK + 1000, 1000), false);
    await c.finish('digest', TICK);
    strictEqual(await c.running('digest', TICK, TICK + 500, 1000), false);
  },
  'raises the latest tick reached, never lowers it, with many instances at once': async (claims) => {
    const app = randomUUID();
    strictEqual(await claims(app, 'a').last('digest'), undefined);
    const ticks = Array.from({ length: 15 }, (_, i) => TICK + i * 60_000).reverse();
    await Promise.all(ticks.map((tick, i) => claims(app, `i${i}`).reach('digest', tick)));
    strictEqual(await claims(app, 'a').last('digest'), TICK + 14 * 60_000);
    await claims(app, 'a').reach('digest', TICK);
    const last = await claims(app, 'b').last('digest');
    ok(last === TICK + 14 * 60_000, `still the latest tick, got ${last}`);
  },
};
