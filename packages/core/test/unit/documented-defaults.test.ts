import { readFileSync } from 'node:fs';
import { DEFAULT_BOT_OPTIONS, DEFAULT_HEALTH_OPTIONS } from '@boardbot/core';
import { LIMITS } from '@boardbot/protocol';
import { DEFAULT_REST_OPTIONS } from '@boardbot/rest';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const production = read('../../../../docs/production.md');
const observability = read('../../../../docs/observability.md');
const optionsSource = read('../../src/runtime/options.ts');

/**
 * The rows of the first table after `heading`: first cell (backticks dropped) → second cell; a first
 * cell that names several (`signals`, `exit`) gives a row to each, unless `split` is false.
 */
function table(doc: string, heading: string, { split = true } = {}): Map<string, string> {
  const section = doc.split(heading)[1]?.split('\n#')[0] ?? '';
  const rows = new Map<string, string>();
  const all = [...section.matchAll(/^\| ([^|]+) \| ([^|]+) \|/gm)];
  // The rows after the rule under the header.
  const rule = all.findIndex((m) => /^-+$/.test(m[1]?.trim() ?? ''));
  for (const m of all.slice(rule + 1)) {
    const first = m[1] ?? '';
    for (const name of split ? first.split(',') : [first]) rows.set(name.trim().replace(/`/g, ''), (m[2] ?? '').trim());
  }
  return rows;
}

/** How the docs write a default: numbers as code (`30000`), strings quoted (`'sync'`), `[]`, `true`. */
function written(value: unknown): string {
  if (typeof value === 'string') return `\`'${value}'\``;
  return `\`${JSON.stringify(value)}\``;
}

describe('docs/production.md, `createBot` options', () => {
  const rows = table(production, '## `createBot` options');

  it('lists every option of BotOptions', () => {
    const declared = optionsSource
      .split('export interface BotOptions {')[1]
      ?.split('\n}')[0]
      ?.matchAll(/^ {2}(\w+)\??:/gm);
    const names = [...(declared ?? [])].map((m) => m[1] ?? '');
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter((n) => !rows.has(n))).toEqual([]);
    expect([...rows.keys()].filter((n) => !names.includes(n))).toEqual([]);
  });

  it('gives the defaults DEFAULT_BOT_OPTIONS holds', () => {
    const prose: Record<string, string> = {
      apiUrl: '`BOARDBOT_API_URL`, else the emulator',
      stateDir: '`BOARDBOT_STATE_DIR`, else `.boardbot`',
      errorReply: 'a short apology',
    };
    for (const [name, value] of Object.entries(DEFAULT_BOT_OPTIONS)) {
      const documented = rows.get(name);
      expect(documented, name).toBeDefined();
      if (name in prose) expect(documented, name).toBe(prose[name]);
      else expect(documented, name).toBe(written(value));
    }
    expect(DEFAULT_BOT_OPTIONS.errorReply).toMatch(/^Sorry/);
  });

  it('gives the defaults of the variables, and those the prose repeats', () => {
    const variables = table(production, '| variable | default | read by |');
    expect(variables.get('BOARDBOT_API_URL')).toContain(`\`${DEFAULT_BOT_OPTIONS.apiUrl}\``);
    expect(variables.get('BOARDBOT_STATE_DIR')).toContain(`\`${DEFAULT_BOT_OPTIONS.stateDir}\``);
    expect(variables.get('LOG_LEVEL')).toBe('`info`');
    const seconds = (ms: number) => `${ms / 1000} s`;
    expect(production).toContain(`\`shutdownTimeoutMs\` (${seconds(DEFAULT_BOT_OPTIONS.shutdownTimeoutMs)})`);
    expect(production).toContain(`\`positionFlushMs\` (${DEFAULT_BOT_OPTIONS.positionFlushMs} ms)`);
    expect(production).toContain(`\`backfillLimit\`, ${DEFAULT_BOT_OPTIONS.backfillLimit}, per`);
    expect(production).toContain(`\`concurrency\` (${DEFAULT_BOT_OPTIONS.concurrency})`);
  });
});

describe('the health endpoint defaults', () => {
  it('are the ones docs/observability.md and docs/production.md give', () => {
    const grace = `\`reconnectGraceMs\` (default ${DEFAULT_HEALTH_OPTIONS.reconnectGraceMs / 1000} s)`;
    expect(observability).toContain(grace);
    expect(production).toContain(grace);
    expect(observability).toContain(`\`host\` defaults to \`${DEFAULT_HEALTH_OPTIONS.host}\``);
  });
});

describe('docs/production.md, rate limits and retries', () => {
  it('gives the defaults of the REST client and the platform', () => {
    const rows = table(production, '| what | default | then |', { split: false });
    const seconds = (ms: number) => `${ms / 1000} s`;
    const r = DEFAULT_REST_OPTIONS;
    expect(rows.get('a wait for the rate limit longer than maxRateLimitWaitMs')).toBe(seconds(r.maxRateLimitWaitMs));
    expect(rows.get('calls waiting for the rate limit')).toBe(r.maxQueued.toLocaleString('en-US'));
    const retried = [...rows.keys()].find((k) => k.startsWith('network errors'));
    expect(retried).toContain(`timeouts (${seconds(r.timeoutMs)} per attempt)`);
    expect(rows.get(retried ?? '')).toBe(
      `${r.retries} retries, back-off ${r.retryBaseMs} ms doubling to ${seconds(r.retryMaxMs)}`,
    );
    const perSecond = (LIMITS.rateLimitRequests * 1000) / LIMITS.rateLimitWindowMs;
    expect(production).toContain(`The platform allows ${perSecond} requests per second per app token by default`);
  });
});
