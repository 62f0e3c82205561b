import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

// docs/observability.md's on-call queries, run by Prometheus's own engine (`promtool test rules`)
// over series of every handler outcome: "is it dropping?" counts the failures, not a graceful stop.

const root = new URL('../../', import.meta.url).pathname;
const page = readFileSync(join(root, 'docs/observability.md'), 'utf8');

/** The first query of a row of the on-call table (a table cell's `\|` is a `|` of the query). */
function queryOf(question: string): string {
  const row = page.split('\n').find((line) => line.startsWith(`| ${question} |`));
  const query = row && /`([^`]+)`/.exec(row)?.[1];
  if (!query) throw new Error(`docs/observability.md has no query for "${question}"`);
  return query.replaceAll('\\|', '|');
}

const OUTCOMES = ['ok', 'error', 'timeout', 'abandoned', 'cancelled', 'already_applied'];

describe("observability.md's on-call queries", () => {
  it('"Is it dropping?" counts handlers that failed or timed out, not abandoned, cancelled or already applied runs', () => {
    // Each outcome ends one run a second for 10 minutes (60 more a minute).
    const series = OUTCOMES.map((outcome) => ({
      series: `boardbot_handler_duration_seconds_count{handler="Ask.run",outcome="${outcome}"}`,
      values: '0+60x10',
    }));
    const tests = {
      rule_files: [],
      evaluation_interval: '1m',
      tests: [
        {
          interval: '1m',
          input_series: series,
          promql_expr_test: [
            {
              expr: queryOf('Is it dropping?'),
              eval_time: '10m',
              exp_samples: ['error', 'timeout'].map((outcome) => ({
                labels: `{handler="Ask.run",outcome="${outcome}"}`,
                value: 1,
              })),
            },
          ],
        },
      ],
    };
    const dir = tempDir('on-call-queries-');
    const file = join(dir.dir, 'queries.test.yml');
    writeFileSync(file, stringify(tests));
    const run = spawnSync('promtool', ['test', 'rules', file], { encoding: 'utf8' });
    dir.remove();
    expect(run.error).toBeUndefined();
    expect(`${run.stdout}${run.stderr}`).toContain('SUCCESS');
    expect(run.status).toBe(0);
  });
});
