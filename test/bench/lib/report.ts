import { existsSync, readFileSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { type BenchRow, RESULTS_FILE } from './record.js';

const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));

/** Global setup of `npm run bench`: clears old rows, and prints one table when all files ran. */
export default function setup(): () => void {
  rmSync(RESULTS_FILE, { force: true });
  return () => {
    if (!existsSync(RESULTS_FILE)) return;
    const rows = readFileSync(RESULTS_FILE, 'utf8')
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
  };
}
