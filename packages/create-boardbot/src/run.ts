import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CREATE_EXIT_CODES, CreateBoardbotError } from './errors.js';
import { type CommandRunner, inheritRunner, installDependencies } from './install.js';
import { checkLocalCheckout, type PackageSource } from './package-json.js';
import { scaffold } from './scaffold.js';

/** Where `create-boardbot` writes and what it runs; injected so tests need no terminal. */
export interface CreateIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** The directory the target is relative to. */
  cwd: string;
  /** Runs npm. @defaultValue with the terminal's stdio */
  run?: CommandRunner;
}

/** The usage text of `create-boardbot`. */
export const USAGE = `Usage: npm create boardbot <directory> [-- --local <repo>] [--no-install]
       npx create-boardbot <directory> [--local <repo>] [--no-install]

Creates a boardbot project in <directory> (its name becomes the package name) and installs it.

Options:
  --local <repo>  depend on the packages of a local, built checkout of the boardbot repository
                  (file: links) instead of the registry
  --no-install    write the files only; run \`npm install\` yourself
  -h, --help      show this help

Exit codes: 0 done, 1 the install failed, 2 usage error.`;

function parse(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        local: { type: 'string' },
        'no-install': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new CreateBoardbotError('BOARDBOT_CREATE_USAGE', `${(error as Error).message}\n\n${USAGE}`);
  }
}

/**
 * `create-boardbot <directory> [--local <repo>] [--no-install]`: scaffolds the project, installs
 * it, and prints the next steps. Returns the exit code (0 done, 1 install failed, 2 usage error);
 * errors are printed, never thrown.
 *
 * @param argv - the arguments after the program name
 * @param io - output, working directory and the npm runner
 */
export async function runCreate(argv: readonly string[], io: CreateIo): Promise<number> {
  try {
    const { values, positionals } = parse(argv);
    if (values.help) {
      io.out(USAGE);
      return CREATE_EXIT_CODES.ok;
    }
    const [target, ...extra] = positionals;
    if (!target || extra.length > 0) {
      throw new CreateBoardbotError(
        'BOARDBOT_CREATE_USAGE',
        `${target ? `Expected one directory, got ${positionals.length}` : 'Missing the project directory'}.\n\n${USAGE}`,
      );
    }
    const source: PackageSource =
      values.local === undefined ? { kind: 'registry' } : { kind: 'local', checkout: checkLocalCheckout(values.local) };
    const result = scaffold({ target: resolve(io.cwd, target), source });
    const shown = relative(io.cwd, result.dir) || '.';
    io.out(`Created ${result.name} in ${result.dir}:`);
    for (const file of result.files) io.out(`  ${file}`);
    if (source.kind === 'local') io.out(`The @boardbot packages link to ${source.checkout}/packages (built).`);
    const install = !values['no-install'];
    if (install) {
      io.out('Installing dependencies with npm install...');
      await installDependencies(result.dir, io.run ?? inheritRunner);
    }
    io.out('');
    io.out('Next:');
    io.out(`  cd ${shown}`);
    if (!install) io.out('  npm install');
    io.out('  npm run dev    # the emulator, your bot, and the playground URL to talk to it');
    io.out('  npm test       # the tests');
    return CREATE_EXIT_CODES.ok;
  } catch (error) {
    if (error instanceof CreateBoardbotError) {
      io.err(`error ${error.code}: ${error.message}`);
      return error.exitCode;
    }
    io.err(`error: ${error instanceof Error ? error.message : String(error)}`);
    return CREATE_EXIT_CODES.failure;
  }
}
