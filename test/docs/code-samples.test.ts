import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { aiEntryFiles, aiSdkForTests } from '../../scripts/ai-sdk.mjs';
import { compilerOptions, docSamples, moduleText, root } from './doc-samples.js';

// Every ```ts block of the docs and READMEs is compiled against the packages' published types, so a
// sample cannot drift from the API it shows. A block may start with `// @filename: x.ts` lines to
// split into several files (for samples that import each other). `ai` is the AI SDK this Node's
// tests use (ai 7 on Node 22 and later, ai 6 on Node 20: scripts/ai-sdk.mjs), so CI compiles the
// samples against both majors, and with them the assistant example and core's ModelMessage test.

const outDir = join(root, 'test-output', 'doc-samples');
const all = docSamples();

/** Each diagnostic of `program`, as `where (+line): message`. */
function problemsOf(program: ts.Program, where: (file: string) => string | undefined): string[] {
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const file = d.file?.fileName ?? '';
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    return `${where(file) ?? file} (+${line}): ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('code samples in the docs', () => {
  it('finds samples to compile', () => {
    expect(all.length).toBeGreaterThan(0);
  });

  it('all compile against the packages', () => {
    rmSync(outDir, { recursive: true, force: true });
    const names: string[] = [];
    const where = new Map<string, string>();
    all.forEach((s, n) => {
      const dir = join(outDir, `${s.doc.replace(/[^a-z0-9]+/gi, '-')}-${s.line}-${n}`);
      mkdirSync(dir, { recursive: true });
      for (const f of s.files) {
        const path = join(dir, f.name);
        writeFileSync(path, moduleText(f.text));
        names.push(path);
        where.set(path, `${s.doc}:${s.line}`);
      }
    });
    const program = ts.createProgram(names, compilerOptions());
    expect(problemsOf(program, (file) => where.get(file))).toEqual([]);
  });

  it("compiles the assistant example and core's ModelMessage type test against this Node's AI SDK too", () => {
    const files = [
      ...['src', 'test'].flatMap((dir) =>
        readdirSync(join(root, 'examples/assistant', dir))
          .filter((f) => f.endsWith('.ts'))
          .map((f) => join(root, 'examples/assistant', dir, f)),
      ),
      join(root, 'packages/core/test/model-messages.test-d.ts'),
    ];
    const program = ts.createProgram(files, compilerOptions());
    // The files import `ai`: each resolves to this Node's major.
    const ai = aiSdkForTests();
    const resolved = program.getSourceFiles().map((f) => f.fileName);
    expect(resolved).toContain(aiEntryFiles(ai.dir).ai.types);
    expect(problemsOf(program, () => undefined)).toEqual([]);
  });
});
