import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type BuildResult, createFastEmitter, type ProjectWatch, watchProject } from '@boardbot/cli/internal';
import ts from 'typescript';
import { describe, expect, it, onTestFinished } from 'vitest';
import { fixtureProjectForTest } from './support/fixture-project.js';

const versionSource = (v: string) => `export const VERSION = '${v}' as const;\n`;

describe('the watch build of boardbot dev', () => {
  it('does not write the output of a file saved again after the build read it; the next build writes it', async () => {
    const project = fixtureProjectForTest('watch-stale');
    project.write('src/version.ts', versionSource('v1'));
    const built = join(project.dir, 'dist', 'version.js');
    // Each build's result, with what dist/ held when it ended.
    const builds: Array<BuildResult & { built: string }> = [];
    let next: (() => void) | undefined;
    let saveDuringCheck: string | undefined;
    const diagnostics: string[] = [];
    const watch: ProjectWatch = watchProject({
      typescript: ts,
      tsconfig: join(project.dir, 'tsconfig.json'),
      onDiagnostic: (text) => diagnostics.push(text),
      // The build has read the files: a save now is one it did not compile.
      onBuildStart() {
        if (saveDuringCheck === undefined) return;
        project.write('src/version.ts', versionSource(saveDuringCheck));
        saveDuringCheck = undefined;
      },
      onBuild(result) {
        builds.push({ ...result, built: /'v\d'/.exec(readFileSync(built, 'utf8'))?.[0] ?? '' });
        next?.();
      },
    });
    onTestFinished(() => watch.close());
    const untilBuilds = (count: number) =>
      new Promise<void>((resolve) => {
        next = () => builds.length >= count && resolve();
      });
    expect(builds.map((b) => b.built)).toEqual(["'v1'"]);

    // v2 saved; its build reads it, then v3 is saved inside that build's check.
    saveDuringCheck = 'v3';
    const twoMore = untilBuilds(3);
    project.write('src/version.ts', versionSource('v2'));
    await twoMore;

    expect(diagnostics).toEqual([]);
    expect(builds.map(({ emitted, built }) => ({ emitted, built })).slice(1)).toEqual([
      // v2's build wrote nothing of version.ts: it was v3 on disk by then.
      { emitted: 0, built: "'v1'" },
      { emitted: 1, built: "'v3'" },
    ]);
  }, 60_000);

  it('leaves alone an output the fast emit already wrote (a bot reloaded on it may be loading it)', async () => {
    const project = fixtureProjectForTest('watch-same');
    const source = join(project.dir, 'src', 'version.ts');
    const built = join(project.dir, 'dist', 'version.js');
    project.write('src/version.ts', versionSource('v1'));
    const tsconfig = join(project.dir, 'tsconfig.json');
    const builds: BuildResult[] = [];
    let next: (() => void) | undefined;
    const watch = watchProject({
      typescript: ts,
      tsconfig,
      onDiagnostic: () => {},
      onBuild(result) {
        builds.push(result);
        next?.();
      },
    });
    onTestFinished(() => watch.close());
    const fast = createFastEmitter(ts, tsconfig);

    // v2 saved and emitted at once, as dev's fast emit does, before the build that follows the save.
    const built2 = new Promise<void>((resolve) => {
      next = () => builds.length >= 2 && resolve();
    });
    project.write('src/version.ts', versionSource('v2'));
    expect(fast?.emit(source)).toEqual([built]);
    const emitted = statSync(built);
    await built2;

    // The build wrote nothing: written again in place, the file is empty for a moment, and a bot
    // importing it then finds no exports.
    expect(builds[1]).toMatchObject({ errors: 0, emitted: 0 });
    const after = statSync(built);
    expect({ ino: after.ino, mtimeMs: after.mtimeMs }).toEqual({ ino: emitted.ino, mtimeMs: emitted.mtimeMs });
    expect(readFileSync(built, 'utf8')).toContain("'v2'");
  }, 60_000);

  it('says whether the fast emit writes a failed build alone: a type error yes, a syntax error or a new file no', async () => {
    const project = fixtureProjectForTest('watch-emittable');
    project.write('src/version.ts', versionSource('v1'));
    const builds: BuildResult[] = [];
    let next: (() => void) | undefined;
    const watch = watchProject({
      typescript: ts,
      tsconfig: join(project.dir, 'tsconfig.json'),
      onDiagnostic: () => {},
      onBuild(result) {
        builds.push(result);
        next?.();
      },
    });
    onTestFinished(() => watch.close());
    const saved = (path: string, text: string) => {
      const count = builds.length + 1;
      const built = new Promise<BuildResult>((resolve) => {
        next = () => builds.length >= count && resolve(builds[count - 1] as BuildResult);
      });
      project.write(path, text);
      return built;
    };

    expect(await saved('src/version.ts', `${versionSource('v2')}export const n: number = 'x';\n`)).toMatchObject({
      errors: 1,
      emittable: true,
    });
    expect(await saved('src/version.ts', `${versionSource('v3')}export const broken = ;\n`)).toMatchObject({
      emittable: false,
    });
    expect(await saved('src/version.ts', versionSource('v4'))).toMatchObject({ errors: 0, emittable: true });
    // The fast emit knows the files of the tsconfig as dev started: a new one is the build's.
    expect(await saved('src/added.ts', "export const n: number = 'x';\n")).toMatchObject({
      errors: 1,
      emittable: false,
    });
  }, 60_000);
});
