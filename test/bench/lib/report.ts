import { existsSync, readFileSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import type { BenchRow } from './record.js';

const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));

/** Global setup of `npm run bench`: clears old rows, and prints one table when all files ran. */
export default function setup(): () => void {
  const file = new URL(`../../../test-output/bench-results-${process.pid}.jsonl`, import.meta.url).pathname;
  process.env.BOARDBOT_BENCH_RESULTS = file;
  rmSync(file, { force: true });
  return () => {
    if (!existsSync(file)) return;
    const rows = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as BenchRow);
    const table = rows.map((r) => ({
      bench: r.bench,
      subject: r.subject,
      figure: `${fmt(r.value)} ${r.unit}`,
      ratio: r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}x`,
      note: r.note ?? '',
    }));
    const cpu = cpus()[0]?.model ?? 'unknown cpu';
    process.stdout.write(`\nboardbot benchmarks — node ${process.version}, ${cpus().length} × ${cpu}\n`);
    console.table(table);
    rmSync(file, { force: true });
  };
}
