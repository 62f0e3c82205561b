import type { InteractionView } from '@boardbot/emulator/control';
import { isAnswerWriting } from '@boardbot/protocol/runtime';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { type DevState, devPort, readDevStates } from '../dev/dev-state.js';
import { ConfigError, InvocationError, SeveralDevError } from '../errors.js';
import type { CliIo } from '../io.js';
import { describeInvokeRefusal } from './invoke-refusal.js';

/** Flags of `boardbot invoke`. */
export interface InvokeFlags {
  /** The person who invokes. @defaultValue `'alice'` */
  as?: string;
  /** The board, by name. @defaultValue `'general'` */
  board?: string;
  /** How long to wait for the answer, in milliseconds. @defaultValue 5000, or 60000 with `wait` */
  timeout?: number;
  /** Wait for the answer's final text (a streamed answer's last edit), not its first post. @defaultValue false */
  wait?: boolean;
  /** The emulator's control API (or its origin). @defaultValue that of the project's running `boardbot dev` */
  url?: string;
  /** The admin key. @defaultValue `BOARDBOT_ADMIN_KEY`, else that of the project's running `boardbot dev` */
  key?: string;
  /** Which running `boardbot dev` of the project, by its emulator's port or its process id, when several run. */
  dev?: number;
  /** The project directory. */
  cwd?: string;
}

/** Defaults of {@link InvokeFlags}. */
export const DEFAULT_INVOKE_FLAGS = {
  as: 'alice',
  board: 'general',
  timeout: 5000,
  wait: false,
} as const satisfies Required<Pick<InvokeFlags, 'as' | 'board' | 'timeout' | 'wait'>>;

/** How long `--wait` waits for a final text unless `--timeout` says: a streamed answer takes seconds. */
const FINAL_TIMEOUT_MS = 60_000;

/** Splits `poll create question=Lunch? a=b` into the subcommand and the `name=value` options. */
function parseInvocation(words: readonly string[]): { subcommand?: string; options: Record<string, string> } {
  const options: Record<string, string> = {};
  let subcommand: string | undefined;
  for (const [i, word] of words.entries()) {
    const eq = word.indexOf('=');
    if (eq > 0) options[word.slice(0, eq)] = word.slice(eq + 1);
    else if (i === 0) subcommand = word;
    else throw new ConfigError(`"${word}" is not an option: write options as name=value, e.g. sides=20.`);
  }
  return subcommand === undefined ? { options } : { subcommand, options };
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

function describe(state: DevState): string {
  return `pid ${state.pid} on port ${devPort(state)}${state.db ? ` (database ${state.db})` : ''}`;
}

/**
 * The running `boardbot dev` of the project that `invoke` talks to: the only one, or the one `--dev`
 * names (by port or pid); several without `--dev` are refused with the list.
 *
 * @param states - the records of the running instances
 * @param dev - the `--dev` flag
 * @param env - the CLI's environment, so that the fix is worded for the npm script that ran it
 */
export function chooseDev(
  states: readonly DevState[],
  dev: number | undefined,
  env: NodeJS.ProcessEnv = {},
): DevState | undefined {
  const running = states.map(describe).join('; ');
  if (dev !== undefined) {
    const chosen = states.filter((s) => devPort(s) === dev || s.pid === dev);
    if (chosen.length === 1) return chosen[0];
    if (chosen.length > 1)
      throw new SeveralDevError(chosen.map(describe).join('; '), devPort(chosen[0] as DevState), env);
    throw new ConfigError(
      `No running \`boardbot dev\` of this project has the port or pid ${dev}${running ? `; running: ${running}` : ''}. ` +
        'Fix: pass --dev with one of those, or start `npm run dev`.',
    );
  }
  if (states.length > 1) throw new SeveralDevError(running, devPort(states[0] as DevState), env);
  return states[0];
}

/**
 * `boardbot invoke <command> [subcommand] [name=value...]`: runs a slash command as a person of the
 * local emulator, through its control API, and prints the bot's answer. The emulator checks the
 * options against the registered ones and converts the text values to their types, as the
 * playground's form does.
 *
 * @param command - the command name (a leading `/` is allowed)
 * @param words - an optional subcommand, then `name=value` options
 * @param flags - see {@link InvokeFlags}
 * @param io - output and environment
 */
export async function runInvoke(
  command: string,
  words: readonly string[],
  flags: InvokeFlags,
  io: CliIo,
): Promise<void> {
  const cwd = flags.cwd ?? io.cwd ?? process.cwd();
  // With --url, the record of the dev at that address (if any) lends its key; without, one is chosen.
  const state =
    flags.url === undefined
      ? chooseDev(readDevStates(cwd), flags.dev, io.env)
      : readDevStates(cwd).find((s) => sameOrigin(s.controlUrl, flags.url as string));
  const url = flags.url ?? state?.controlUrl;
  const key = flags.key ?? io.env.BOARDBOT_ADMIN_KEY ?? state?.adminKey;
  if (!url || !key) {
    throw new ConfigError(
      'No running `boardbot dev` found in this project (.boardbot/dev-*.json). Fix: start `npm run dev` in another ' +
        'terminal, or pass --url <emulator URL> and --key <admin key> (or set BOARDBOT_ADMIN_KEY).',
    );
  }
  const { subcommand, options } = parseInvocation(words);
  const name = command.replace(/^\//, '');
  // Loaded by `invoke` alone: every other command (`start`'s bot among them) runs without it.
  const { ControlApiError, ControlClient, ControlUnreachableError } = await import('@boardbot/emulator/control');
  const client = new ControlClient({ url, adminKey: key });
  const who = flags.as ?? DEFAULT_INVOKE_FLAGS.as;
  const where = flags.board ?? DEFAULT_INVOKE_FLAGS.board;
  const final = flags.wait ?? DEFAULT_INVOKE_FLAGS.wait;
  const timeoutMs = flags.timeout ?? (final ? FINAL_TIMEOUT_MS : DEFAULT_INVOKE_FLAGS.timeout);
  let view: InteractionView;
  try {
    const directory = await client.state();
    const user = directory.users.find((u) => u.username === who);
    const board = directory.boards.find((b) => b.name === where);
    if (!user) throw new ConfigError(`No person "${who}" on the emulator; --as takes a username, e.g. alice or bob.`);
    if (!board) throw new ConfigError(`No board "${where}" on the emulator; --board takes a name, e.g. general.`);
    const invocation = {
      board_id: board.id,
      user_id: user.id,
      command: name,
      ...(subcommand === undefined ? {} : { subcommand }),
      options,
    };
    view = await client.invokeAndWait(invocation, { answers: 1, timeoutMs, final });
  } catch (error) {
    if (error instanceof ControlApiError) {
      const typed = `/${name}${subcommand === undefined ? '' : ` ${subcommand}`}`;
      throw new InvocationError(describeInvokeRefusal(typed, error, url));
    }
    if (error instanceof ControlUnreachableError) {
      throw new InvocationError(`The emulator at ${url} cannot be reached. Is \`boardbot dev\` running?`);
    }
    throw error;
  }
  if (view.answers.length === 0) {
    throw new InvocationError(
      `The bot did not answer /${name} within ${timeoutMs} ms (status: ${view.status}). Is the bot running? Look at ` +
        'the output of `boardbot dev`.',
    );
  }
  const writing = view.answers.filter((a) => isAnswerWriting(a.content)).length;
  if (final && writing > 0) {
    throw new InvocationError(
      `The bot's answer to /${name} was still being written after ${timeoutMs} ms. Fix: a longer --timeout ` +
        '(up to 60000), or look at the output of `boardbot dev`.',
    );
  }
  for (const answer of view.answers) {
    if (answer.content) io.out(answer.content);
    for (const embed of answer.embeds ?? []) {
      io.out(`[embed] ${[embed.title, embed.description].filter(Boolean).join(': ')}`);
      for (const field of embed.fields ?? []) io.out(`  ${field.name}: ${field.value}`);
    }
  }
}

function parseTimeout(value: string): number {
  const ms = Number(value);
  if (!/^\d+$/.test(value) || ms < 1 || ms > 60_000)
    throw new InvalidArgumentError('Expected milliseconds from 1 to 60000.');
  return ms;
}

function parseDev(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('Expected the port or the pid of a running `boardbot dev`.');
  return Number(value);
}

/**
 * Adds `boardbot invoke` to the program.
 *
 * @param program - the `boardbot` program
 * @param io - output and environment
 */
export function registerInvokeCommand(program: Command, io: CliIo): void {
  program
    .command('invoke')
    .description("Run a slash command as a person of the local emulator and print the bot's answer")
    .argument('<command>', 'the command name, e.g. greet')
    .argument('[words...]', 'a subcommand, then options as name=value')
    .option('--as <username>', 'the person who invokes it', DEFAULT_INVOKE_FLAGS.as)
    .option('--board <name>', 'the board', DEFAULT_INVOKE_FLAGS.board)
    .option('--wait', "wait for the answer's final text (a streamed answer's last edit), not its first post")
    .option('--timeout <ms>', 'how long to wait for the answer (default: 5000; 60000 with --wait)', parseTimeout)
    .option('--dev <port|pid>', 'which running `boardbot dev` of this project, when several run', parseDev)
    .option('--url <url>', 'the emulator (default: the running `boardbot dev` of this project)')
    .option('--key <key>', 'its admin key (default: BOARDBOT_ADMIN_KEY, else that of `boardbot dev`)')
    .option('-C, --cwd <dir>', 'the bot project directory (default: the current directory)')
    .addHelpText('after', '\nExample: boardbot invoke greet name=Ada shout=true --as bob')
    .action((command: string, words: string[], flags: InvokeFlags) => runInvoke(command, words, flags, io));
}
