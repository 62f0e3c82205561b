import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { aiEntryFiles, aiSdkForTests } from '../../scripts/ai-sdk.mjs';

// Every ```ts block of the docs and READMEs is compiled against the packages' published types, so a
// sample cannot drift from the API it shows. A block may start with `// @filename: x.ts` lines to
// split into several files (for samples that import each other). `ai` is the AI SDK this Node's
// tests use (ai 7 on Node 22 and later, ai 6 on Node 20: scripts/ai-sdk.mjs), so CI compiles the
// samples against both majors, and with them the assistant example and core's ModelMessage test.

const root = new URL('../../', import.meta.url).pathname;
const outDir = join(root, 'test-output', 'doc-samples');

function markdownFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(root, 'docs', f));
  const readmes = ['README.md', ...readdirSync(join(root, 'packages')).map((p) => `packages/${p}/README.md`)]
    .map((f) => join(root, f))
    .filter((f) => {
      try {
        readFileSync(f);
        return true;
      } catch {
        return false;
      }
    });
  return [...readmes, ...docs];
}

interface Sample {
  doc: string;
  line: number;
  files: { name: string; text: string }[];
}

function samplesOf(file: string): Sample[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const samples: Sample[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i] ?? '')) continue;
    const start = i + 1;
    const body: string[] = [];
    for (i++; i < lines.length && !(lines[i] ?? '').startsWith('```'); i++) body.push(lines[i] ?? '');
    const files: { name: string; text: string }[] = [];
    let current = { name: 'main.ts', text: '' };
    for (const l of body) {
      const m = /^\/\/ @filename: (.+\.ts)$/.exec(l);
      if (m) {
        if (current.text.trim()) files.push(current);
        current = { name: m[1] as string, text: '' };
      } else current.text += `${l}\n`;
    }
    files.push(current);
    samples.push({ doc: relative(root, file), line: start, files });
  }
  return samples;
}

const all = markdownFiles().flatMap(samplesOf);

/** The compiler options of the packages, with `ai` and `ai/test` at this Node's AI SDK. */
function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile).config;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  const ai = aiSdkForTests();
  const paths = Object.fromEntries(Object.entries(aiEntryFiles(ai.dir)).map(([name, f]) => [name, [f.types]]));
  return {
    ...options,
    paths,
    noEmit: true,
    composite: false,
    declaration: false,
    declarationMap: false,
    noUnusedLocals: false,
  };
}

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
        writeFileSync(
          path,
          f.text.includes('import') || f.text.includes('export') ? f.text : `${f.text}\nexport {};\n`,
        );
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
