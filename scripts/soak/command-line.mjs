// The soak scripts' command line: the flags every soak takes beside its own, its `--help` (the
// script's leading comment, so the two never differ), and the build of the packages it runs.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The flags of the soak script at `url`: its own `options` and `--json <file>`, `--no-build`,
 * `--help`. With `--help`, prints the script's leading `//` comment and exits.
 * @param url - the script's `import.meta.url`
 * @param options - its own flags, as `parseArgs` takes them
 */
export function soakFlags(url, options) {
  const { values } = parseArgs({
    options: {
      ...options,
      json: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    const lines = readFileSync(fileURLToPath(url), 'utf8').split('\n');
    const header = lines.slice(
      0,
      lines.findIndex((line) => !line.startsWith('//')),
    );
    process.stdout.write(`${header.map((line) => line.replace(/^\/\/ ?/, '')).join('\n')}\n`);
    process.exit(0);
  }
  return values;
}

/**
 * Builds `packages` (`tsc -b`, with what they depend on) unless the flags say `--no-build`.
 * @param values - what {@link soakFlags} returned
 * @param packages - the packages the soak runs built (`packages/cli`...)
 */
export function buildUnlessTold(values, packages) {
  if (values['no-build']) return;
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', ...packages], { cwd: root, stdio: 'inherit' });
}
