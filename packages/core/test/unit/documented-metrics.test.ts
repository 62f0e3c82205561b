import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BotMetrics } from '../../src/health/bot-metrics.js';

const observability = readFileSync(new URL('../../../../docs/observability.md', import.meta.url), 'utf8');

interface Documented {
  type: string;
  labels: string[];
}

/** The rows of the table under `## Metrics` in docs/observability.md, by metric name. */
function documentedMetrics(): Map<string, Documented> {
  const section = observability.split('\n## Metrics')[1]?.split('\n## ')[0] ?? '';
  const rows = new Map<string, Documented>();
  for (const m of section.matchAll(/^\| (`[^|]+)\|([^|]*)\|([^|]*)\|/gm)) {
    const labels = [...(m[3] ?? '').matchAll(/`(\w+)`/g)].map((l) => l[1] ?? '');
    for (const name of (m[1] ?? '').matchAll(/`([\w*]+)`/g)) {
      rows.set(name[1] ?? '', { type: (m[2] ?? '').trim(), labels });
    }
  }
  return rows;
}

/** The bot's metrics as registered: name → type and label names. */
function registered(): Map<string, Documented> {
  const metrics = new BotMetrics(
    { pending: () => 0, inFlight: () => 0, ready: async () => true, replica: async () => undefined },
    () => undefined,
  );
  return new Map(
    metrics.registry.getMetricsAsArray().map((metric) => {
      // prom-client keeps the label names on the metric object; its typings leave them out.
      const labels = (Reflect.get(metric, 'labelNames') as string[] | undefined) ?? [];
      return [metric.name, { type: String(metric.type), labels: [...labels] }];
    }),
  );
}

describe('the metrics docs/observability.md lists', () => {
  const documented = documentedMetrics();
  const actual = registered();

  it('are every boardbot_ metric /metrics serves, with its type and labels', () => {
    const ours = (names: Iterable<string>) => [...names].filter((n) => n.startsWith('boardbot_')).sort();
    expect(ours(documented.keys())).toEqual(ours(actual.keys()));
    for (const name of ours(actual.keys())) {
      const doc = documented.get(name);
      const real = actual.get(name);
      // The replica gauges share one row with no type; every other row names its type.
      if (doc?.type !== '') expect(doc?.type, name).toBe(real?.type);
      else expect(real?.type, name).toBe('gauge');
      expect(doc?.labels, name).toEqual(real?.labels);
    }
  });

  it("include prom-client's process and event-loop metrics under their documented names", () => {
    for (const name of ['nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds']) {
      expect(documented.has(name), name).toBe(true);
      expect(actual.has(name), name).toBe(true);
    }
    expect([...actual.keys()].some((n) => n.startsWith('process_'))).toBe(true);
  });
});
