import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkPackage, createPackageFromTarballData, type Problem } from '@arethetypeswrong/core';
import { tempDir } from '@boardbot/test-support';
import { publint } from 'publint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Packed, packPublicPackages, publicPackages, root } from './packed.js';

// What a project gets from the registry is the tarball, not the checkout: publint checks each
// tarball's package.json against its files (exports, types, files), and arethetypeswrong resolves
// every entry point's types the way TypeScript does under node16 and bundler resolution. The packages
// are ESM only (`type: module`, Node 20.19+), so attw's `esm-only` profile leaves out CommonJS
// `require`. Both must report nothing. (Their programmatic APIs, run in this process: the CLIs,
// `npx publint --strict <tgz>` and `npx attw --profile esm-only <tgz>`, give the same answers.)
/** The resolutions an ESM-only package does not serve: `require` (node16-cjs) and pre-exports node10. */
const ESM_ONLY_IGNORES: string[] = ['node10', 'node16-cjs'];

describe('the published tarballs', () => {
  const temp = tempDir('boardbot-pack-');
  let packed: Packed[] = [];
  beforeAll(async () => {
    packed = await packPublicPackages(temp.dir);
  }, 300_000);
  afterAll(() => temp.remove());

  it('are one per public package, built, with the playground page and the scaffolder templates', () => {
    expect(packed.map((p) => p.name).sort()).toEqual(
      publicPackages()
        .map((p) => p.name)
        .sort(),
    );
    for (const p of packed) {
      expect(p.files, p.name).toContain('dist/index.js');
      expect(p.files, p.name).toContain('dist/index.d.ts');
      expect(
        p.files.filter((f) => f.includes('tsbuildinfo') || f.startsWith('src/') || f.startsWith('test/')),
        p.name,
      ).toEqual([]);
    }
    expect(packed.find((p) => p.name === '@boardbot/emulator')?.files).toContain('dist/playground/index.html');
    expect(packed.find((p) => p.name === 'create-boardbot')?.files).toContain('templates/_gitignore');
  });

  it('pass publint (strict: suggestions count too)', async () => {
    const reports: string[] = [];
    for (const p of packed) {
      const { messages } = await publint({ pack: { tarball: tarballBytes(p) }, strict: true });
      if (messages.length > 0) reports.push(`${p.name}: ${JSON.stringify(messages)}`);
    }
    expect(reports).toEqual([]);
  });

  it('pass arethetypeswrong, with types for every entry point', { timeout: 120_000 }, async () => {
    const reports: string[] = [];
    for (const p of packed) {
      const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(tarballBytes(p))));
      // attw counts a package without types as passing; every boardbot package ships them.
      if (!analysis.types) reports.push(`${p.name}: no types`);
      else reports.push(...analysis.problems.filter(counted).map((problem) => `${p.name}: ${JSON.stringify(problem)}`));
    }
    expect(reports).toEqual([]);
  });

  it('hold @boardbot/core as a peer wherever a package builds on it, so a project has one copy', () => {
    const manifests = packed.map((p) => ({ name: p.name, ...readManifest(p.dir) }));
    for (const m of manifests.filter((m) =>
      ['@boardbot/testing', '@boardbot/cli', '@boardbot/redis', '@boardbot/postgres'].includes(m.name),
    )) {
      expect(m.peerDependencies?.['@boardbot/core'], m.name).toBe(m.version);
    }
    expect(manifests.filter((m) => m.dependencies?.['@boardbot/core']).map((m) => m.name)).toEqual([]);
  });
});

/** The tarball's bytes in an ArrayBuffer of their own. */
function tarballBytes(p: Packed): ArrayBuffer {
  return new Uint8Array(readFileSync(p.tarball)).buffer;
}

/** Whether attw's `esm-only` profile (what `attw --profile esm-only` exits 1 on) counts a problem. */
function counted(problem: Problem): boolean {
  return !('resolutionKind' in problem) || !ESM_ONLY_IGNORES.includes(problem.resolutionKind);
}

function readManifest(dir: string): {
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
} {
  return JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
}
