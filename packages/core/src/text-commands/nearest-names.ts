/** A typed name longer than this is not compared (command names have at most 32 characters). */
const MAX_TYPED = 34;

/**
 * The optimal-string-alignment distance of `a` and `b` (insertions, deletions, substitutions and
 * swaps of two neighbours: `langauge` is one away from `language`), or `limit + 1` once it is known
 * to exceed `limit`.
 */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, (before[j - 2] as number) + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = row;
  }
  return previous[b.length] as number;
}

/**
 * The names close to a mistyped one, nearest first: one edit away for a name of up to 4 characters,
 * two for a longer one (so `!hi` suggests nothing, `!langauge` suggests `language`).
 *
 * @param typed - the name typed, lower case
 * @param names - the names that exist
 * @returns at most three names
 */
export function nearestNames(typed: string, names: Iterable<string>): string[] {
  if (typed.length === 0 || typed.length > MAX_TYPED) return [];
  const limit = typed.length <= 4 ? 1 : 2;
  const found: { name: string; d: number }[] = [];
  for (const name of names) {
    const d = distance(typed, name, limit);
    if (d <= limit) found.push({ name, d });
  }
  return found
    .sort((x, y) => x.d - y.d || x.name.localeCompare(y.name))
    .slice(0, 3)
    .map((f) => f.name);
}
