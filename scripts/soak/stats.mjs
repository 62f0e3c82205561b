// The soak's figures (scripts/soak.mjs): percentiles, rounding, and the slope of memory over time
// with its confidence interval, from which the soak says "leak" or "no leak".

/** The p-th percentile (0..100) of `xs`, or null without samples. */
export function percentile(xs, p) {
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** `x` to `digits` decimals (null stays null). */
export const round = (x, digits = 2) => (x === null ? null : Number(x.toFixed(digits)));

/**
 * The least-squares slope of `heapMb` over `minute`, its 95 % confidence interval (Student's t for
 * n − 2 degrees of freedom) and the points' scatter around the line; null under 3 points.
 */
export function slopeOf(points) {
  const n = points.length;
  if (n < 3) return null;
  const mx = points.reduce((s, p) => s + p.minute, 0) / n;
  const my = points.reduce((s, p) => s + p.heapMb, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.minute - mx) ** 2, 0);
  const slope = points.reduce((s, p) => s + (p.minute - mx) * (p.heapMb - my), 0) / sxx;
  const residuals = points.map((p) => p.heapMb - (my + slope * (p.minute - mx)));
  const scatter = Math.sqrt(residuals.reduce((s, r) => s + r * r, 0) / (n - 2));
  const t = [12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23][n - 3] ?? (n - 2 < 30 ? 2.1 : 1.96);
  const halfWidth = (t * scatter) / Math.sqrt(sxx);
  return { slope, low: slope - halfWidth, high: slope + halfWidth, scatter };
}

/**
 * The leak verdict on heap samples after GC (`{ minute, heapMb }`) of a run of `runMinutes`: the
 * slope over the last 20 minutes (the whole run when shorter); "leak" when its 95 % interval is above
 * zero and the growth it predicts over that window exceeds twice the samples' scatter around the line.
 */
export function leakVerdict(memory, runMinutes) {
  const lastMinutes = Math.min(20, runMinutes);
  const window = memory.filter((m) => m.minute >= runMinutes - lastMinutes);
  const fit = slopeOf(window);
  const growth = fit ? fit.slope * lastMinutes : null;
  const verdict = fit === null ? 'too short to say' : fit.low > 0 && growth > 2 * fit.scatter ? 'leak' : 'no leak';
  return {
    windowMinutes: lastMinutes,
    samples: window.length,
    slopeMbPerMinute: fit && round(fit.slope, 4),
    slope95: fit && [round(fit.low, 4), round(fit.high, 4)],
    scatterMb: fit && round(fit.scatter, 3),
    growthMb: growth === null ? null : round(growth, 3),
    verdict,
  };
}

/**
 * The verdict of a run of several processes (the host soak's), from each process's own
 * (`{ replica, lifeMinutes, verdict }`): that of the processes that lived the rule's window, the last
 * 20 minutes of the run (the whole run when shorter). A process that lived less (a replica killed
 * after 5 minutes, its successor started late) would be judged on its warm-up, in which it starts
 * what it was handed, so it does not decide the run's verdict; its own stays beside.
 */
export function runVerdict(memory, runMinutes) {
  const windowMinutes = Math.min(20, runMinutes);
  // Lives are reported to a tenth of a minute.
  const judged = memory.filter((m) => m.lifeMinutes >= windowMinutes - 0.1);
  const verdict =
    judged.length === 0 ? 'too short to say' : judged.some((m) => m.verdict === 'leak') ? 'leak' : 'no leak';
  return { windowMinutes, judged: judged.map((m) => m.replica), verdict };
}
