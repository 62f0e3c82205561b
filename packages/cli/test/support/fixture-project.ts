import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';

// Fixture projects live inside the repository (under the ignored test-output/), so `@boardbot/core`,
// class-validator and @types/node resolve from the checkout's node_modules, as they would in a
// workspace. The packages' built output is used: run `tsc -b` first (npm test does).
const root = new URL('../../../../', import.meta.url).pathname;

/** A throwaway bot project on disk. */
export interface FixtureProject {
  dir: string;
  /** Writes (or overwrites) a file of the project. */
  write(path: string, text: string): void;
  /** Deletes the project. */
  remove(): void;
}

/** The `/ping` command's source, answering `pong <version>`. */
export function pingSource(version: string): string {
  return `import { Command, Option, type CommandContext } from '@boardbot/core';
import { IsOptional, IsString } from 'class-validator';

export class PingOptions {
  @Option({ description: 'Echoed back' }) @IsOptional() @IsString() text?: string;
}

@Command({ name: 'ping', description: 'Answers pong', options: PingOptions })
export class Ping {
  run(_ctx: CommandContext<PingOptions>, { text }: PingOptions) {
    return \`pong ${version}\${text ? \` \${text}\` : ''}\`;
  }
}
`;
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    useDefineForClassFields: false,
    rootDir: 'src',
    outDir: 'dist',
    skipLibCheck: true,
    types: ['node'],
  },
  include: ['src'],
};

/**
 * The bot module of a project laid out as `npm create boardbot` makes one: its definition, with
 * `/ping` and `/env`, which says what of the CLI's configuration the bot sees in `process.env`.
 */
export const DEFINITION_BOT = `import { Command, defineBot } from '@boardbot/core';
import { Ping } from './ping.js';

@Command({ name: 'env', description: 'What the bot sees in process.env' })
export class Env {
  run() {
    const seen = (key: string) => (process.env[key] === undefined ? 'unset' : 'set');
    return \`token \${seen('BOARDBOT_TOKEN')}, api url \${seen('BOARDBOT_API_URL')}, own \${process.env.OWN_SETTING}\`;
  }
}

export default defineBot({ handlers: [Ping, Env] });
`;

/**
 * Writes a small bot project: `/ping` (with an options class), `src/bot.ts` exporting `handlers`
 * (or, with `definition`, the bot's definition: {@link DEFINITION_BOT}), and `src/main.ts` starting
 * the bot from `BOARDBOT_TOKEN`.
 *
 * @param name - a label for the directory
 * @param layout - `definition`: the bot module exports the bot's definition
 */
export function createFixtureProject(name: string, layout: { definition?: boolean } = {}): FixtureProject {
  const dir = join(root, 'test-output', 'cli-fixtures', `${name}-${randomBytes(4).toString('hex')}`);
  const write = (path: string, text: string) => {
    const file = join(dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  write(
    'package.json',
    `${JSON.stringify({ name: `fixture-${name}`, private: true, type: 'module', main: 'dist/main.js' }, null, 2)}\n`,
  );
  write('tsconfig.json', `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  write('src/ping.ts', pingSource('v1'));
  write(
    'src/bot.ts',
    layout.definition ? DEFINITION_BOT : "import { Ping } from './ping.js';\n\nexport const handlers = [Ping];\n",
  );
  write(
    'src/main.ts',
    layout.definition
      ? `import { createBot } from '@boardbot/core';
import bot from './bot.js';

await createBot(bot, { token: process.env.BOARDBOT_TOKEN ?? '' }).start();
`
      : `import { createBot } from '@boardbot/core';
import { handlers } from './bot.js';

const bot = createBot({ token: process.env.BOARDBOT_TOKEN ?? '', handlers, logger: { level: process.env.LOG_LEVEL ?? 'info' } });
await bot.start();
`,
  );
  return { dir, write, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Compiles a fixture project with the TypeScript API (as `tsc -p` would), throwing on any error.
 *
 * @param project - the project
 */
export async function buildFixtureProject(project: FixtureProject): Promise<void> {
  const ts = (await import('typescript')).default;
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(project.dir, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('no tsconfig');
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const result = program.emit();
  const problems = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics].map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  );
  if (problems.length > 0) throw new Error(`the fixture does not compile:\n${problems.join('\n')}`);
}

/**
 * {@link createFixtureProject} for the running test: the project is removed when the test finishes,
 * pass or fail, so no test leaves one behind for the next.
 *
 * @param name - a label for the directory
 */
export function fixtureProjectForTest(name: string, layout: { definition?: boolean } = {}): FixtureProject {
  const project = createFixtureProject(name, layout);
  onTestFinished(() => project.remove());
  return project;
}
