/**
 * How many single-character edits (insert, delete, replace, or swap of two neighbours) turn `a`
 * into `b`, the optimal string alignment distance: `comandSync` is one from `commandSync`,
 * `langauge` one from `language`.
 *
 * @param a - one name
 * @param b - the other
 */
export function editDistance(a: string, b: string): number {
  // Three rows of the table: the one before the previous (for swaps), the previous, the current.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (before[j - 2] ?? 0) + 1);
      current.push(d);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The names of `known` close enough to `name` to be what was meant, nearest first: at most a third
 * of the longer name's characters apart (so `comandSync` finds `commandSync`, and `x` finds
 * nothing), compared without case.
 *
 * @param name - what was written
 * @param known - the names that exist
 * @param max - how many to give at most
 * @defaultValue max: 3
 */
export function nearestNames(name: string, known: Iterable<string>, max = 3): string[] {
  const lower = name.toLowerCase();
  return [...known]
    .map((candidate) => ({ candidate, distance: editDistance(lower, candidate.toLowerCase()) }))
    .filter(({ candidate, distance }) => distance <= Math.floor(Math.max(name.length, candidate.length) / 3))
    .sort((x, y) => x.distance - y.distance || x.candidate.localeCompare(y.candidate))
    .slice(0, max)
    .map(({ candidate }) => candidate);
}
