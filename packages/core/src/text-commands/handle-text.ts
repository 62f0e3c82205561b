import type { Message } from '@boardbot/protocol';
import { COMMAND_RULES, type CommandTarget, type RawOptions, type RunningCommand } from '../commands/command-stages.js';
import { type CommandMethod, commandTable } from '../commands/handle-interaction.js';
import { routeKey } from '../commands/route-key.js';
import { TEXT_COMMANDS } from '../editable/answer-link.js';
import type { EditableAnswers } from '../editable/editable-answers.js';
import { EditableLinks } from '../editable/editable-links.js';
import type { ContextDeps } from '../kernel/base-context.js';
import type { BotEvent, EventMeta } from '../kernel/event.js';
import { AuthorCache } from '../listeners/authors.js';
import { MESSAGE_KIND } from '../listeners/handle-message.js';
import { chosenByListener } from '../listeners/match-message.js';
import { startMessageRun } from '../listeners/message-run.js';
import type { MessageListenerMetadata } from '../listeners/metadata.js';
import type { EventKind, KindDefinition, KindHost } from '../policies/kind.js';
import { checkGivenValues } from './check-values.js';
import { nearestNames } from './nearest-names.js';
import { type ResolvedTextCommandOptions, textEditable } from './options.js';
import { readArguments } from './read-arguments.js';
import { TextCommandContextImpl } from './text-context.js';
import { type TextCommandEntry, textCommandTable } from './text-table.js';
import { tokenize } from './tokenize.js';

type Ctx = TextCommandContextImpl<Record<string, unknown>>;

/** A text invocation: the command it names and the text of its arguments. */
interface Invocation {
  name: string;
  /** The command; none for a name that does not exist but is close to `suggestions`. */
  entry: TextCommandEntry | undefined;
  /** The commands the name is close to, when it names none. */
  suggestions: readonly string[];
  /** The text after the command's name. */
  line: string;
  /** Whether it is the message's edit (an editable command's re-run). */
  edited: boolean;
  message: Message;
}

/**
 * Commands invoked as text (`!roll 20`): a kind with no decorator of its own, which runs the command
 * kind's methods, with their guards and cooldown.
 * @param commands - the command kind, whose methods it runs
 * @param text - the bot's text command options (prefix, `all`, `editable`)
 */
export function textCommandKind(
  commands: KindDefinition<CommandMethod>,
  text: ResolvedTextCommandOptions,
): KindDefinition {
  return {
    name: 'text command',
    decorators: [],
    describe: () => [],
    create: (host) => {
      const table = commandTable(host.handlersOf(commands));
      return new TextCommandHandler(host, textCommandTable(table, text.all, textEditable(text)), text);
    },
  };
}

/**
 * Handles text invocations (`!roll 20`): a new message that starts with the prefix and names a
 * command that can be invoked as text runs that command's method through the runner, with
 * its arguments read from the line and checked as the platform checks a slash invocation's. An
 * unknown command close to known ones is answered with their names (`textCommands.suggest`), unless
 * a message listener chose the message; other unknown names, and text from webhooks, bots and the
 * bot itself, are ignored. Refusals posted to one
 * person for one command are at most one a window (the runner's throttle: `refusalIntervalMs`).
 */
class TextCommandHandler implements EventKind<Invocation> {
  private readonly authors: AuthorCache;
  private readonly links: EditableLinks;
  /** The `message.create` listeners: a name one of them chooses gets no did-you-mean. */
  private readonly listeners: readonly MessageListenerMetadata[];

  constructor(
    private readonly host: KindHost,
    private readonly table: ReadonlyMap<string, TextCommandEntry>,
    private readonly text: ResolvedTextCommandOptions,
  ) {
    this.authors = new AuthorCache(host.env.rest, () => host.env.clock.now());
    this.links = new EditableLinks(host.env);
    this.listeners = host
      .handlersOf(MESSAGE_KIND)
      .flatMap(({ meta }) => (meta.event === 'message.create' ? [meta] : []));
  }

  /**
   * The invocation a new message (or an editable one's edit) makes, from a person; a webhook's or the
   * bot's own message makes none.
   */
  route(event: BotEvent): Invocation | undefined {
    if (event.unknown || this.table.size === 0) return undefined;
    if (event.name !== 'message.create' && event.name !== 'message.edit') return undefined;
    const { message } = event.data;
    const edited = event.name === 'message.edit';
    const { prefix } = this.text;
    if (message.author === null || message.author === this.host.env.app().bot_user_id) return undefined;
    if (message.content === null || !message.content.startsWith(prefix)) return undefined;
    const head = /^(\S+)/.exec(message.content.slice(prefix.length));
    const name = head?.[1]?.toLowerCase();
    if (name === undefined) return undefined;
    const entry = this.table.get(name);
    const line = message.content.slice(prefix.length + name.length);
    if (!entry) {
      // A new message only: an edit to an unknown name leaves the answers as they are. A message a
      // listener chose (`@OnMessage('!apple')` beside `!apples`) is that listener's to answer.
      const suggestions = this.text.suggest && !edited ? nearestNames(name, this.table.keys()) : [];
      if (suggestions.length === 0 || chosenByListener(this.listeners, message)) return undefined;
      return { name, entry, suggestions, line, message, edited };
    }
    if (edited && !entry.editable) return undefined;
    return { name, entry, suggestions: [], line, message, edited };
  }

  /** Runs a text invocation; never rejects. */
  async handle(found: Invocation, event: EventMeta): Promise<void> {
    const { message, entry, name, edited } = found;
    const { env, runner } = this.host;
    // An edit is answered only where the message's answers are linked (docs: "Editable answers"),
    // and an event a later one of the message superseded is not run again after a crash.
    if (entry?.editable && !(await this.links.mayRun(message, TEXT_COMMANDS, event, edited))) return;
    const start = await startMessageRun(env.log, this.authors, event, message, { command: name });
    const { correlationId, author: user } = start;
    let log = start.log;
    if (user === null) return;
    // Other bots' commands are not for this one: answering them could make two bots talk forever.
    if (user.is_bot) return log.debug('text command from a bot: ignored');
    if (edited) log.info('message edited: the text command runs again and edits its answers');
    let answers: EditableAnswers | undefined;
    const context =
      (command: Ctx['command']) =>
      (deps: ContextDeps): RunningCommand => {
        answers = entry?.editable ? this.links.answers(deps, message, TEXT_COMMANDS) : undefined;
        return new TextCommandContextImpl(deps, message, user, command, this.text.prefix, answers);
      };
    const shown = `${this.text.prefix}${name}`;
    const request = { rules: COMMAND_RULES, label: shown, event, log, correlationId };
    if (!entry) {
      // A mistyped command: the nearest names, once a window per person whatever they mistype.
      if (!runner.mayRefuse(user.id, '?', log)) return;
      const suggestions = found.suggestions.map((n) => `${this.text.prefix}${n}`).join(', ');
      const values = { command: shown, suggestions };
      return runner.speak(
        { ...request, context: context({ name, subcommand: null }) },
        'boardbot:unknownTextCommand',
        values,
      );
    }
    let target = entry.run;
    let line = found.line;
    let subcommand: string | null = null;
    if (!target) {
      const sub = /^\s*(\S+)/.exec(line);
      subcommand = sub?.[1]?.toLowerCase() ?? null;
      target = subcommand === null ? undefined : entry.subcommands.get(subcommand);
      if (!target || !sub) {
        // A known command without a (known) subcommand: the person is told which ones there are (a
        // refusal held back by the window leaves an editable command's earlier answers as they were).
        const subcommands = [...entry.subcommands.keys()].join(', ');
        const key = subcommand === null ? 'boardbot:needsSubcommand' : 'boardbot:noSubcommand';
        const values = { command: shown, subcommand, subcommands };
        if (runner.mayRefuse(user.id, shown, log))
          await runner.speak({ ...request, context: context({ name, subcommand: null }) }, key, values);
        return this.links.finish(answers, log);
      }
      line = line.slice(sub[0].length);
    }
    log = log.child({ command: routeKey(name, subcommand) });
    const chosen = target;
    // A re-run on an edit pays the cooldown like any run: its use is named by the edit event, so the
    // same edit handled again takes no second one (docs/guards-middleware-cooldowns.md).
    await runner.run({
      rules: COMMAND_RULES,
      target,
      event,
      log,
      correlationId,
      context: context({ name, subcommand }),
      input: (ctx: RunningCommand) => this.read(ctx as Ctx, line, chosen),
    });
    await this.links.finish(answers, log);
  }

  /** Reads the arguments as the docs say, resolves names to ids, and makes the platform's checks. */
  private async read(ctx: Ctx, line: string, target: CommandTarget): Promise<RawOptions> {
    const tokens = tokenize(line);
    if (!tokens.ok) return { ok: false, problems: [tokens.problem] };
    const { options } = target.route;
    const given = readArguments(tokens.tokens, line, options, ctx.shownAs);
    if (!given.ok) return given;
    return checkGivenValues(given.values, options, ctx);
  }
}
