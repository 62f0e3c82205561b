import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createFastEmitter } from '@boardbot/cli/internal';
import { tscEmit } from '@boardbot/test-support';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// docs/cli.md, "boardbot dev": a saved file is emitted at once, before the type check, and the bot
// runs exactly what the build then writes. The decorator metadata the runtime reads (`design:type`,
// `design:paramtypes`) is part of those bytes: a per-file transpiler writes other metadata (an
// imported class as `typeof X === "undefined" ? Object : X`, nothing for an untyped property with a
// default under SWC), so each file of every example and of the scaffold's template is emitted both
// ways and compared.

const root = fileURLToPath(new URL('../../../', import.meta.url));
// Every example, read from the directory so that a new one is compared too, and the template.
const PROJECTS = [
  ...readdirSync(`${root}examples`, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(`${root}examples/${d.name}/tsconfig.json`))
    .map((d) => `examples/${d.name}`),
  'packages/create-boardbot/templates',
];

// A whole program per project, twice: seconds each, more with the suite in parallel on two cores.
describe('the fast emit of a saved file', { timeout: 120_000 }, () => {
  it.each(PROJECTS)('writes what tsc writes, decorator metadata included: %s', (project) => {
    const tsconfig = `${root}${project}/tsconfig.json`;
    const expected = tscEmit(tsconfig);
    const emitter = createFastEmitter(ts, tsconfig);
    if (!emitter) throw new Error(`no fast emitter for ${project}`);
    const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, undefined, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    });
    const actual = new Map<string, string>();
    for (const file of parsed?.fileNames ?? []) {
      for (const output of emitter.outputs(file) ?? []) actual.set(output.name, output.text);
    }
    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [name, text] of expected) expect(actual.get(name), name).toBe(text);
  });

  it('emits the metadata the runtime reads: an injected class, an untyped option with a default', () => {
    const emitter = createFastEmitter(ts, `${root}examples/dice/tsconfig.json`);
    const roll = emitter?.outputs(`${root}examples/dice/src/roll.ts`)?.find((f) => f.name.endsWith('roll.js'));
    expect(roll?.text).toContain('__metadata("design:paramtypes", [Dice])');
    expect(roll?.text).toMatch(/__metadata\("design:type", Object\)\n\], RollOptions.prototype, "sides"/);
  });
});
