// The public surface of every package, as API Extractor reports it: one report per public entry
// point (`packages/<name>/api/<entry>.api.md`). `--check` fails when a report differs from what the
// build now exports (a test runs it), so a change of the public API always comes with its report;
// without `--check` the reports are rewritten. Internal entry points (`./internal`) are not public
// and have no report. Run after `tsc -b`: it reads the built declarations.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';

const root = fileURLToPath(new URL('..', import.meta.url));
const NOT_PUBLIC = new Set(['./package.json', './internal']);

/**
 * Every public entry point of every published package.
 * @returns `{ dir, name, subpath, types, report }` per entry point
 */
export function publicEntryPoints() {
  return readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => {
      const dir = join(root, 'packages', d.name);
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (pkg.private) return [];
      return Object.entries(pkg.exports ?? { '.': { types: pkg.types } })
        .filter(([subpath, target]) => !NOT_PUBLIC.has(subpath) && typeof target === 'object' && target.types)
        .map(([subpath, target]) => ({
          dir,
          name: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
          types: join(dir, target.types),
          report: `${subpath === '.' ? 'index' : subpath.slice(2).replaceAll('/', '-')}.api.md`,
        }));
    });
}

/**
 * Checks or writes the report of one entry point.
 * @param entry - from {@link publicEntryPoints}
 * @param check - compare only
 * @returns whether the report is (now) what the build exports
 */
function report(entry, check) {
  if (!check) mkdirSync(join(entry.dir, 'api'), { recursive: true });
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: entry.dir,
      mainEntryPointFilePath: entry.types,
      compiler: { tsconfigFilePath: join(entry.dir, 'tsconfig.json') },
      apiReport: {
        enabled: true,
        reportFolder: join(entry.dir, 'api'),
        reportTempFolder: join(root, 'node_modules', '.cache', 'api-report', relative(root, entry.dir)),
        reportFileName: entry.report,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        // Release tags (@public, @beta) are not how boardbot marks what is public: entry points are.
        extractorMessageReporting: { 'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None } },
        tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: join(entry.dir, 'package.json'),
  });
  const result = Extractor.invoke(config, {
    localBuild: !check,
    messageCallback(message) {
      // The report itself says what changed; keep the console to real problems.
      if (message.logLevel === ExtractorLogLevel.Info || message.logLevel === ExtractorLogLevel.Verbose) {
        message.handled = true;
      }
    },
  });
  return !result.apiReportChanged;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const check = process.argv.includes('--check');
  const stale = publicEntryPoints().filter((entry) => !report(entry, check));
  if (check && stale.length > 0) {
    console.error(
      `The public API changed without its report: ${stale.map((e) => e.name).join(', ')}. ` +
        'Run `npm run api` and commit the reports with the change (and a CHANGELOG.md line).',
    );
    process.exitCode = 1;
  }
}
