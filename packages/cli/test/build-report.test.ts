import { BuildReport } from '@boardbot/cli/internal';
import { describe, expect, it } from 'vitest';

const failed = { errors: 1, emitted: 0, first: false, emittable: false };
const good = { errors: 0, emitted: 1, first: false, emittable: true };
const ERROR = "src/ping.ts(3,14): error TS2322: Type 'string' is not assignable to type 'number'.";
const OTHER = "src/ping.ts(4,1): error TS2304: Cannot find name 'oops'.";

function build(
  report: BuildReport,
  diagnostics: string[],
  result: typeof failed,
  runs: 'saved' | 'last-good' | 'none' = 'last-good',
): string[] {
  for (const d of diagnostics) report.diagnostic(d);
  return report.ended(result, runs);
}

describe("boardbot dev's report of each build (issue 42)", () => {
  it('prints a failed build once, though one save builds twice with the same errors', () => {
    const report = new BuildReport();
    expect(build(report, [ERROR], failed)).toEqual([
      ERROR,
      'Build failed with 1 error: the bot keeps running the last good build.',
    ]);
    expect(build(report, [ERROR], failed)).toEqual([]);
  });

  it('prints a failure with other errors, and the same failure again after a good build', () => {
    const report = new BuildReport();
    build(report, [ERROR], failed);
    expect(build(report, [ERROR, OTHER], { ...failed, errors: 2 })).toEqual([
      ERROR,
      OTHER,
      'Build failed with 2 errors: the bot keeps running the last good build.',
    ]);
    expect(build(report, [], good)).toEqual([]);
    expect(build(report, [ERROR], failed)).toHaveLength(2);
  });

  it('does not say the bot keeps running when none is', () => {
    const report = new BuildReport();
    expect(build(report, [ERROR], failed, 'none').at(-1)).toBe(
      'Build failed with 1 error: the bot starts after the next good build.',
    );
  });

  it('says the bot runs the saved code when a fast emit restarted it before the type check', () => {
    const report = new BuildReport();
    expect(build(report, [ERROR], failed, 'saved')).toEqual([
      ERROR,
      'Type check found 1 error: the bot runs the saved code anyway (types do not hold a reload back).',
    ]);
  });
});
