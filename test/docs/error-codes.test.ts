import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHAT_ADAPTER_ERROR_CODES } from '@boardbot/chat-adapter';
import { CLI_ERROR_CODES, EXIT_CODES } from '@boardbot/cli';
import { CORE_ERROR_CODES } from '@boardbot/core';
import { EMULATOR_ERROR_CODES } from '@boardbot/emulator';
import { CONTROL_ERROR_CODES } from '@boardbot/emulator/control';
import { GATEWAY_ERROR_CODES } from '@boardbot/gateway';
import { MCP_ERROR_CODES } from '@boardbot/mcp';
import { POSTGRES_ERROR_CODES } from '@boardbot/postgres';
import { ERROR_CODES, ERROR_STATUS } from '@boardbot/protocol';
import { REDIS_ERROR_CODES } from '@boardbot/redis';
import { REST_ERROR_CODES } from '@boardbot/rest';
import { TESTING_ERROR_CODES } from '@boardbot/testing';
import { CREATE_ERROR_CODES } from 'create-boardbot';
import { describe, expect, it } from 'vitest';

// docs/error-codes.md promises every error code of every package and of the contract, and no other.
// This test ties the page to the code: a new error class, a renamed code or a stale row fails it.
// Each package declares its codes once, in its errors.ts (its error factory), and exports the list.

const root = new URL('../../', import.meta.url).pathname;
const page = readFileSync(join(root, 'docs/error-codes.md'), 'utf8');

/** The codes each package exports, by package directory. */
const packageCodes: Record<string, readonly string[]> = {
  core: CORE_ERROR_CODES,
  rest: REST_ERROR_CODES,
  gateway: GATEWAY_ERROR_CODES,
  redis: REDIS_ERROR_CODES,
  'chat-adapter': CHAT_ADAPTER_ERROR_CODES,
  mcp: MCP_ERROR_CODES,
  postgres: POSTGRES_ERROR_CODES,
  // The emulator's server and its control API client (`@boardbot/emulator/control`), one section.
  emulator: [...EMULATOR_ERROR_CODES, ...CONTROL_ERROR_CODES],
  testing: TESTING_ERROR_CODES,
  cli: CLI_ERROR_CODES,
  'create-boardbot': CREATE_ERROR_CODES,
};

/**
 * Every quoted `'BOARDBOT_…'` literal of each package's `errors.ts` files (`src/errors.ts`, and those of
 * its entry points, such as `src/control/errors.ts`), by package directory (the names of environment
 * variables inside messages are never quoted on their own).
 */
function codesInErrorSources(): Map<string, string[]> {
  const byPackage = new Map<string, string[]>();
  for (const name of readdirSync(join(root, 'packages'))) {
    let files: string[];
    try {
      files = readdirSync(join(root, 'packages', name, 'src'), { recursive: true, encoding: 'utf8' });
    } catch {
      continue;
    }
    const sources = files
      .filter((f) => f === 'errors.ts' || f.endsWith('/errors.ts'))
      .map((f) => readFileSync(join(root, 'packages', name, 'src', f), 'utf8'));
    if (sources.length === 0) continue;
    const codes = sources.flatMap((source) => [...source.matchAll(/'(BOARDBOT_[A-Z_]+)'/g)].map((m) => m[1] as string));
    byPackage.set(name, [...new Set(codes)]);
  }
  return byPackage;
}

const sourceCodes = codesInErrorSources();
// protocol's errors.ts holds the contract's codes, checked below.
sourceCodes.delete('protocol');

/** The `## ` heading of the page that lists a package's codes. */
const sectionOf = (name: string): string =>
  ({
    cli: '`boardbot` (the CLI)',
    'create-boardbot': '`create-boardbot`',
  })[name] ?? `\`@boardbot/${name}\``;
const CONTRACT_SECTION = "The platform's error codes";

interface Row {
  section: string;
  cells: string[];
}

/** Table rows of the page (header and separator rows excluded), with the `## ` section they are in. */
function tableRows(markdown: string): Row[] {
  const rows: Row[] = [];
  let section = '';
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) section = line.slice(3).trim();
    if (!line.startsWith('|') || /^\|\s*-/.test(line)) continue;
    const cells = line
      .slice(1, line.endsWith('|') ? -1 : undefined)
      .split('|')
      .map((c) => c.trim());
    rows.push({ section, cells });
  }
  return rows;
}

/** Rows whose first cell is one code in backticks: the page's code listings. */
const codeRows = tableRows(page).flatMap((row) => {
  const match = /^`([A-Za-z_]+)`$/.exec(row.cells[0] ?? '');
  return match ? [{ ...row, code: match[1] as string }] : [];
});
const listedBoardbot = codeRows.filter((r) => r.code.startsWith('BOARDBOT_'));
const listedContract = codeRows.filter((r) => /^[a-z_]+$/.test(r.code));

const missingFrom = (expected: readonly string[], actual: readonly string[]) =>
  expected.filter((c) => !actual.includes(c));

describe('docs/error-codes.md', () => {
  it('imports the code list of every package that has an errors.ts, and each covers its source', () => {
    expect([...sourceCodes.keys()].sort()).toEqual(Object.keys(packageCodes).sort());
    for (const [name, codes] of sourceCodes) {
      expect({ package: name, missing: missingFrom(codes, packageCodes[name] ?? []) }).toEqual({
        package: name,
        missing: [],
      });
    }
  });

  it('lists every BOARDBOT_ code of every package', () => {
    const all = Object.values(packageCodes).flat();
    expect(
      missingFrom(
        all,
        listedBoardbot.map((r) => r.code),
      ),
    ).toEqual([]);
  });

  it('lists no BOARDBOT_ code that no package has', () => {
    const all = Object.values(packageCodes).flat();
    expect(listedBoardbot.map((r) => r.code).filter((c) => !all.includes(c))).toEqual([]);
  });

  it('lists each code once, in its own package section, with a meaning and a fix', () => {
    const seen = listedBoardbot.map((r) => r.code);
    expect(seen.filter((c, i) => seen.indexOf(c) !== i)).toEqual([]);
    for (const [name, codes] of Object.entries(packageCodes)) {
      for (const code of codes) {
        const row = listedBoardbot.find((r) => r.code === code);
        expect({ code, section: row?.section }).toEqual({ code, section: sectionOf(name) });
        expect(row?.cells.slice(1).every((cell) => cell.length > 0)).toBe(true);
      }
    }
  });

  it('gives each CLI code the exit code the CLI ends with', () => {
    const exits: readonly number[] = Object.values(EXIT_CODES);
    for (const row of listedBoardbot.filter((r) => r.section === sectionOf('cli'))) {
      expect(exits).toContain(Number(row.cells[1]));
    }
    const exitRows = tableRows(page).filter((r) => r.section === sectionOf('cli') && /^\d+$/.test(r.cells[0] ?? ''));
    expect(exitRows.map((r) => Number(r.cells[0])).sort()).toEqual([...exits].sort());
  });

  it("lists exactly the contract's error codes, each with its HTTP status", () => {
    const codes = listedContract.map((r) => r.code);
    expect(missingFrom(ERROR_CODES, codes)).toEqual([]);
    expect(codes.filter((c) => !(ERROR_CODES as readonly string[]).includes(c))).toEqual([]);
    expect(codes.filter((c, i) => codes.indexOf(c) !== i)).toEqual([]);
    for (const row of listedContract) {
      expect(row.section).toBe(CONTRACT_SECTION);
      expect({ code: row.code, status: Number(row.cells[1]) }).toEqual({
        code: row.code,
        status: ERROR_STATUS[row.code as keyof typeof ERROR_STATUS],
      });
    }
  });
});
