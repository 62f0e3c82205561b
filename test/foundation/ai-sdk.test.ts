import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { AI_SDK_7_PROJECT, aiSdkForTests } from '../../scripts/ai-sdk.mjs';

// boardbot supports the AI SDK `ai` ^6 || ^7, and CI tests each major on the Node line it runs on:
// ai 6 on Node 20 (the repository's own install), ai 7 on Node 22+ (test/ai-sdk-7).

const root = new URL('../../', import.meta.url).pathname;
const json = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8'));
const SUPPORTED = '^6.0.0 || ^7.0.0';

describe('the AI SDK majors', () => {
  it('are the range core takes as an optional peer and the assistant example depends on', () => {
    const core = json('packages/core/package.json');
    expect(core.peerDependencies.ai).toBe(SUPPORTED);
    expect(core.peerDependenciesMeta.ai).toEqual({ optional: true });
    expect(json('examples/assistant/package.json').dependencies.ai).toBe(SUPPORTED);
  });

  it('are each installed for the tests: ai 6 in the repository (Node 20 accepts it), ai 7 pinned in test/ai-sdk-7', () => {
    const lock = json('package-lock.json').packages['node_modules/ai'];
    expect(semver.major(lock.version)).toBe(6);
    expect(semver.satisfies(process.versions.node, lock.engines.node)).toBe(true);
    const seven = JSON.parse(readFileSync(join(AI_SDK_7_PROJECT, 'package-lock.json'), 'utf8')).packages[
      'node_modules/ai'
    ];
    expect(semver.major(seven.version)).toBe(7);
    for (const version of [lock.version, seven.version]) expect(semver.satisfies(version, SUPPORTED)).toBe(true);
  });

  it('are chosen by the Node version: ai 6 on Node 20, ai 7 from Node 22', () => {
    expect(aiSdkForTests('20.19.0')).toMatchObject({ major: 6, dir: join(root, 'node_modules/ai') });
    expect(aiSdkForTests('22.13.0')).toMatchObject({ major: 7, dir: join(AI_SDK_7_PROJECT, 'node_modules/ai') });
    expect(aiSdkForTests('26.12.1').major).toBe(7);
    expect(aiSdkForTests().installed).toBe(true);
  });
});
