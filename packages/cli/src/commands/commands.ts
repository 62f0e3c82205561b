import type { CommandDefinition, CommandOption } from '@boardbot/protocol';
import { RestClient } from '@boardbot/rest';
import type { Command } from 'commander';
import { type CliConfig, loadConfig } from '../config/load-config.js';
import { MissingTokenError } from '../errors.js';
import { EXIT_CODES } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { type LoadedBot, loadBotModule } from '../project/load-bot-module.js';
import { type BotProject, type ProjectFlags, resolveProject, shown } from '../project/project.js';
import { addConfigOptions, addProjectOptions, type CommonFlags } from './shared-options.js';

/** Flags of `boardbot commands diff|sync|list`. */
export interface CommandsFlags extends CommonFlags, Pick<ProjectFlags, 'bot'> {
  /** `sync --dry-run`: print the plan, write nothing. @defaultValue false */
  dryRun?: boolean;
  /** `list --registered`: list what the platform has instead of what the bot declares. @defaultValue false */
  registered?: boolean;
  /** `list --json`: print JSON. @defaultValue false */
  json?: boolean;
}

interface Context {
  project: BotProject;
  config: CliConfig;
}

function context(flags: CommandsFlags, io: CliIo): Context {
  const cwd = flags.cwd ?? io.cwd ?? process.cwd();
  return { project: resolveProject(flags, cwd), config: loadConfig(flags, io.env, cwd) };
}

async function withRest<T>(ctx: Context, command: string, use: (rest: RestClient) => Promise<T>): Promise<T> {
  if (!ctx.config.token) throw new MissingTokenError(command);
  const rest = new RestClient({ token: ctx.config.token, baseUrl: ctx.config.apiUrl, retries: 1 });
  try {
    return await use(rest);
  } finally {
    await rest.close();
  }
}

function declaredCommands(loaded: LoadedBot): CommandDefinition[] {
  return loaded.core.deriveCommands(loaded.handlers);
}

function describeOption(option: CommandOption, indent: string): string[] {
  const bounds: string[] = [];
  if (option.min_value !== undefined || option.max_value !== undefined) {
    bounds.push(`${option.min_value ?? ''}..${option.max_value ?? ''}`);
  }
  if (option.min_length !== undefined || option.max_length !== undefined) {
    bounds.push(`length ${option.min_length ?? 0}..${option.max_length ?? ''}`);
  }
  if (option.choices) bounds.push(`one of ${option.choices.map((c) => JSON.stringify(c.value)).join(', ')}`);
  const flags = option.type === 'subcommand' ? '' : option.required ? ' required' : ' optional';
  const lines = [
    `${indent}${option.name}  ${option.type}${flags}  ${option.description}${bounds.length ? `  (${bounds.join('; ')})` : ''}`,
  ];
  for (const sub of ('options' in option ? option.options : undefined) ?? []) {
    lines.push(...describeOption(sub, `${indent}    `));
  }
  return lines;
}

/**
 * Renders commands for people: one line per command, then its options with type, requirement and
 * bounds.
 *
 * @param commands - declared or registered commands
 */
export function formatCommands(commands: readonly CommandDefinition[]): string[] {
  const lines: string[] = [];
  for (const c of commands) {
    lines.push(`/${c.name}  ${c.description}`);
    for (const o of c.options ?? []) lines.push(...describeOption(o, '    '));
  }
  return lines;
}

/**
 * `boardbot commands list`: the commands the bot declares (or, with `registered`, those the
 * platform has), without starting the bot.
 *
 * @param flags - see {@link CommandsFlags}
 * @param io - where to print
 */
export async function runCommandsList(flags: CommandsFlags, io: CliIo): Promise<void> {
  const ctx = context(flags, io);
  const commands: CommandDefinition[] = flags.registered
    ? await withRest(ctx, 'boardbot commands list --registered', (rest) => rest.listCommands())
    : declaredCommands(await loadBotModule(ctx.project));
  if (flags.json) {
    io.out(JSON.stringify(commands, null, 2));
    return;
  }
  const from = flags.registered
    ? `registered at ${ctx.config.apiUrl}`
    : `declared by ${shown(ctx.project, ctx.project.botModule)}`;
  io.out(`${commands.length} command${commands.length === 1 ? '' : 's'} ${from}`);
  for (const line of formatCommands(commands)) io.out(`  ${line}`);
}

/**
 * `boardbot commands diff`: prints the sync plan between the declared and the registered commands.
 * Drift ends with exit code 3 (for CI), no drift with 0.
 *
 * @param flags - see {@link CommandsFlags}
 * @param io - where to print
 */
export async function runCommandsDiff(flags: CommandsFlags, io: CliIo): Promise<void> {
  const ctx = context(flags, io);
  const loaded = await loadBotModule(ctx.project);
  const declared = declaredCommands(loaded);
  const plan = await withRest(ctx, 'boardbot commands diff', async (rest) =>
    loaded.core.planCommandSync(declared, await rest.listCommands()),
  );
  io.out(loaded.core.formatPlan(plan));
  // Drift is the answer of a diff, not a failure of the CLI: it ends with its own exit code, like diff(1).
  if (!plan.inSync) {
    io.err('The registered commands differ from the declared ones. Fix: run `boardbot commands sync`.');
    io.exit(EXIT_CODES.drift);
  }
}

/**
 * `boardbot commands sync`: registers the declared commands when they differ from the registered
 * ones (one `PUT /app/commands` of the whole set), printing the plan. With `dryRun`, only prints it.
 *
 * @param flags - see {@link CommandsFlags}
 * @param io - where to print
 */
export async function runCommandsSync(flags: CommandsFlags, io: CliIo): Promise<void> {
  const ctx = context(flags, io);
  const loaded = await loadBotModule(ctx.project);
  const declared = declaredCommands(loaded);
  await withRest(ctx, 'boardbot commands sync', async (rest) => {
    const plan = loaded.core.planCommandSync(declared, await rest.listCommands());
    io.out(loaded.core.formatPlan(plan));
    if (plan.inSync) return;
    if (flags.dryRun) {
      io.out('Dry run: nothing was written. Run without --dry-run to register these commands.');
      return;
    }
    const registered = await rest.replaceCommands(declared);
    io.out(`Registered ${registered.length} command${registered.length === 1 ? '' : 's'} at ${ctx.config.apiUrl}.`);
  });
}

/**
 * Adds `boardbot commands diff|sync|list` to the program.
 *
 * @param program - the `boardbot` program
 * @param io - where to print
 */
export function registerCommandsCommand(program: Command, io: CliIo): void {
  const group = program
    .command('commands')
    .description("Compare, register and list the bot's slash commands without starting it")
    .addHelpText(
      'after',
      '\nThe commands are read from the built bot module (dist/bot.js), which exports `handlers`.\n' +
        'Exit codes: 0 ok, 1 failure, 2 usage or configuration error, 3 drift found by `diff`.',
    );

  const diff = group
    .command('diff')
    .description('Show what `sync` would change; exits with 3 when the registered commands differ');
  addProjectOptions(addConfigOptions(diff), ['bot']).action((flags: CommandsFlags) => runCommandsDiff(flags, io));

  const sync = group
    .command('sync')
    .description('Register the declared commands (one PUT of the whole set, only when something differs)')
    .option('--dry-run', 'print the plan and write nothing');
  addProjectOptions(addConfigOptions(sync), ['bot']).action((flags: CommandsFlags) => runCommandsSync(flags, io));

  const list = group
    .command('list')
    .description('List the declared commands and their options (or, with --registered, the registered ones)')
    .option('--registered', "list the platform's registered commands instead")
    .option('--json', 'print JSON');
  addProjectOptions(addConfigOptions(list), ['bot']).action((flags: CommandsFlags) => runCommandsList(flags, io));
}
