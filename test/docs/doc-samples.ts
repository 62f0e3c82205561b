import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { aiEntryFiles, aiSdkForTests } from '../../scripts/ai-sdk.mjs';

// The ```ts blocks of the docs and READMEs, for the tests that compile them (code-samples) and that
// compare their decorator metadata under tsc and vitest's transform (metadata-parity).

/** The repository's root directory, with a trailing slash. */
export const root = new URL('../../', import.meta.url).pathname;

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

/** One ```ts block: where it is, and its files (a block may split with `// @filename: x.ts` lines). */
export interface Sample {
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

/** Every sample of the docs and the packages' READMEs. */
export function docSamples(): Sample[] {
  return markdownFiles().flatMap(samplesOf);
}

/** A sample file's text as compiled: a script without imports or exports becomes a module. */
export function moduleText(text: string): string {
  return text.includes('import') || text.includes('export') ? text : `${text}\nexport {};\n`;
}

/** The compiler options of the packages, with `ai` and `ai/test` at this Node's AI SDK. */
export function compilerOptions(): ts.CompilerOptions {
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
