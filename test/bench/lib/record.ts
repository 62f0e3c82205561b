import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** One line of the benchmark table: a figure, and its ratio against the same run's baseline. */
export interface BenchRow {
  /** Benchmark group, e.g. `rest: send`. */
  bench: string;
  /** What was measured, e.g. `RestClient` or `raw undici (ceiling)`. */
  subject: string;
  value: number;
  unit: string;
  /** value / baseline value, when the row is compared with a baseline. */
  ratio?: number;
  note?: string;
}

/**
 * File the rows of one `npm run bench` accumulate in; the report prints it. The global setup names a
 * file per run (through the environment, which the test workers inherit), so two runs at once do not
 * mix or wipe each other's rows.
 */
export const RESULTS_FILE =
  process.env.BOARDBOT_BENCH_RESULTS ?? new URL('../../../test-output/bench-results.jsonl', import.meta.url).pathname;

/** Records rows for the final table. */
export function record(...rows: BenchRow[]): void {
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  for (const row of rows) appendFileSync(RESULTS_FILE, `${JSON.stringify(row)}\n`);
}
