import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deriveCommands } from '@boardbot/core';
import { tscEmit } from '@boardbot/test-support';
import ts from 'typescript';
import { transformWithOxc } from 'vite';
import { describe, expect, it } from 'vitest';
import { decoratorMetadata } from './decorator-metadata.js';
import { compilerOptions, docSamples, moduleText, root } from './doc-samples.js';

// docs/testing.md: tests run the bot's sources through vitest's transform (oxc), the bot runs what
// tsc built; the runtime reads the decorator metadata both write (`design:type` of an option,
// `design:paramtypes` of an injected class). Where a transform writes other metadata (SWC writes
// none for an untyped property with a default; esbuild writes none at all), a command's options or
// its providers would differ between the tests and the running bot. So every file of every example,
// of the scaffold's template and of every docs sample is compiled both ways and its metadata
// compared, and the commands and injection types of the examples are derived from both builds.

const PROJECTS = [
  ...readdirSync(join(root, 'examples'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, 'examples', d.name, 'tsconfig.json')))
    .map((d) => `examples/${d.name}`),
  'packages/create-boardbot/templates',
];

function parsedConfig(tsconfig: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: () => {},
  });
  if (!parsed) throw new Error(`cannot read ${tsconfig}`);
  return parsed;
}

/** What vitest's transform writes for a file (the project's tsconfig is found as vitest finds it). */
async function oxcOutput(file: string, text = readFileSync(file, 'utf8')): Promise<string> {
  return (await transformWithOxc(text, file)).code;
}

/** What the runtime reads of a class: its constructor's parameter types, and its commands. */
function runtimeView(value: unknown): unknown {
  if (typeof value !== 'function' || !/^class\b/.test(Function.prototype.toString.call(value))) return undefined;
  const params = (Reflect.getMetadata('design:paramtypes', value) as unknown[] | undefined)?.map(
    (t) => (t as { name?: string } | undefined)?.name ?? String(t),
  );
  let commands: unknown;
  try {
    commands = deriveCommands([value as new () => object]);
  } catch (error) {
    commands = { refused: (error as { code?: string }).code };
  }
  return { params, commands };
}

describe('decorator metadata under tsc and vitest’s transform', { timeout: 120_000 }, () => {
  it.each(PROJECTS)('is the same for every file of %s', async (project) => {
    const tsconfig = join(root, project, 'tsconfig.json');
    const parsed = parsedConfig(tsconfig);
    const built = tscEmit(tsconfig);
    for (const file of parsed.fileNames) {
      const js = ts.getOutputFileNames(parsed, file, false).find((name) => name.endsWith('.js'));
      const expected = decoratorMetadata(built.get(js ?? '') ?? '');
      expect(decoratorMetadata(await oxcOutput(file)), file).toEqual(expected);
    }
  });

  it('reads what the runtime needs: an injected class, an untyped option with a default', async () => {
    const file = join(root, 'examples/dice/src/roll.ts');
    const records = decoratorMetadata(await oxcOutput(file));
    expect(records).toContain('RollOptions.prototype.sides design:type = Object');
    expect(records).toContain('Roll design:paramtypes = [Dice]');
  });

  it('is the same for every file of every docs sample', async () => {
    const dir = join(root, 'test-output', 'metadata-parity');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // vitest's transform reads the decorator settings from the nearest tsconfig, as in a bot project.
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.base.json' }));
    const files = new Map<string, string>();
    docSamples().forEach((sample, n) => {
      for (const f of sample.files) {
        const path = join(dir, `${sample.doc.replace(/[^a-z0-9]+/gi, '-')}-${sample.line}-${n}`, f.name);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, moduleText(f.text));
        files.set(path, `${sample.doc}:${sample.line}`);
      }
    });
    // Emitted beside each sample (no outDir), so a sample's output is found by its name.
    const { outDir: _out, rootDir: _root, ...shared } = compilerOptions();
    const options = { ...shared, noEmit: false, sourceMap: false };
    const built = new Map<string, string>();
    ts.createProgram([...files.keys()], options).emit(undefined, (name, text) => {
      if (name.endsWith('.js')) built.set(name, text);
    });
    let records = 0;
    for (const [path, where] of files) {
      const expected = decoratorMetadata(built.get(path.replace(/\.ts$/, '.js')) ?? '');
      expect(decoratorMetadata(await oxcOutput(path)), where).toEqual(expected);
      records += expected.length;
    }
    expect(records).toBeGreaterThan(0);
  });

  it('gives the same commands and injection types from the sources and from the build of each example', async () => {
    const compared: string[] = [];
    for (const project of PROJECTS.filter((p) => p.startsWith('examples/'))) {
      const parsed = parsedConfig(join(root, project, 'tsconfig.json'));
      // main.ts starts the bot; every other module only declares.
      for (const file of parsed.fileNames.filter((f) => !f.endsWith('/main.ts'))) {
        const js = ts.getOutputFileNames(parsed, file, false).find((name) => name.endsWith('.js')) ?? '';
        const source = (await import(file)) as Record<string, unknown>;
        const build = (await import(js)) as Record<string, unknown>;
        for (const [name, value] of Object.entries(source)) {
          const view = runtimeView(value);
          if (view === undefined) continue;
          expect(runtimeView(build[name]), `${file}: ${name}`).toEqual(view);
          compared.push(name);
        }
      }
    }
    // Classes made inside functions (the assistant's) are not exports: the others must have been seen.
    expect(compared).toEqual(expect.arrayContaining(['Roll', 'Dice', 'PollCommand', 'ModCommand', 'Hello']));
  });
});
