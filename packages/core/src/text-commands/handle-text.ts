import type { Message } from '@boardbot/protocol';
import { checkInvocationOptions, type ErrorDetail } from '@boardbot/protocol/runtime';
import type { CommandTarget } from '../commands/command-steps.js';
import { commandSteps, type RawOptions } from '../commands/command-steps.js';
import { routeKey } from '../commands/route-key.js';
import { TEXT_COMMANDS } from '../editable/answer-link.js';
import { EditableAnswers } from '../editable/editable-answers.js';
import { EditableLinks } from '../editable/editable-links.js';
import type { ContextDeps } from '../kernel/base-context.js';
import type { CoreEnv } from '../kernel/env.js';
import type { BotEvent, EventMeta } from '../kernel/event.js';
import { AuthorCache } from '../listeners/authors.js';
import { chosenByListener } from '../listeners/match-message.js';
import { startMessageRun } from '../listeners/message-run.js';
import type { MessageTarget } from '../listeners/target.js';
import type { PolicyChain } from '../policies/chain.js';
import { nearestNames } from './nearest-names.js';
import type { ResolvedTextCommandOptions } from './options.js';
import { readArguments } from './read-arguments.js';
import { resolveNames } from './resolve-names.js';
import { TextCommandContextImpl } from './text-context.js';
import type { TextCommandEntry } from './text-table.js';
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
}

/** `Required option is missing` → `sides is required`; `Expected at most 6` → `sides: expected at most 6`. */
function problemOf(issue: ErrorDetail): string {
  const name = issue.path.replace(/^\/options\//, '');
  if (issue.message === 'Required option is missing') return `${name} is required`;
  return `${name}: ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`;
}

/**
 * Handles text invocations (`!roll 20`): a new message that starts with the prefix and names a
 * command that can be invoked as text runs that command's method through the policy chain, with
 * its arguments read from the line and checked as the platform checks a slash invocation's. An
 * unknown command close to known ones is answered with their names (`textCommands.suggest`), unless
 * a message listener chose the message; other unknown names, and text from webhooks, bots and the
 * bot itself, are ignored. Refusals posted to one
 * person for one command are at most one a window (the chain's throttle: `refusalIntervalMs`).
 */
export class TextCommandHandler {
  private readonly authors: AuthorCache;
  private readonly links: EditableLinks;

  /**
   * @param env - the bot's environment
   * @param chain - the policy chain
   * @param table - the commands that can be invoked as text
   * @param text - the prefix and the rest of the bot's text command options
   * @param listeners - the `message.create` listeners: a name one of them chooses gets no did-you-mean
   */
  constructor(
    private readonly env: CoreEnv,
    private readonly chain: PolicyChain,
    private readonly table: ReadonlyMap<string, TextCommandEntry>,
    private readonly text: ResolvedTextCommandOptions,
    private readonly listeners: readonly MessageTarget['listener'][] = [],
  ) {
    this.authors = new AuthorCache(env.rest, () => env.clock.now());
    this.links = new EditableLinks(env);
  }

  /**
   * Whether a refusal about `what` may be posted to the person now; one held back leaves an editable
   * command's earlier answers as they were.
   */
  private readonly admit = (ctx: Ctx, what: string = ctx.shownAs): boolean => {
    if (this.chain.mayRefuse(ctx.user.id, what, ctx.log)) return true;
    ctx.heldBack();
    return false;
  };

  /** Whether the event is a new message, from a person, that names a text command (or an edit naming an editable one). */
  handles(event: BotEvent): boolean {
    return this.invocation(event) !== undefined;
  }

  /** The invocation a message makes, if any; a webhook's or the bot's own message makes none. */
  private invocation(event: BotEvent): (Invocation & { message: Message }) | undefined {
    if (event.unknown || this.table.size === 0) return undefined;
    if (event.name !== 'message.create' && event.name !== 'message.edit') return undefined;
    const { message } = event.data;
    const edited = event.name === 'message.edit';
    const { prefix } = this.text;
    if (message.author === null || message.author === this.env.app().bot_user_id) return undefined;
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

  /** Handles a text invocation (other events are not this kind's); never rejects. */
  async handle(dispatched: BotEvent, event: EventMeta): Promise<void> {
    const found = this.invocation(dispatched);
    if (!found) return;
    const { message, entry, name, edited } = found;
    // An edit is answered only where the message's answers are linked (docs: "Editable answers"),
    // and an event a later one of the message superseded is not run again after a crash.
    if (entry?.editable && !(await this.links.mayRun(message, TEXT_COMMANDS, { id: event.id, edited }))) return;
    const start = await startMessageRun(this.env.log, this.authors, event, message, { command: name });
    const { correlationId, author: user } = start;
    let log = start.log;
    if (user === null) return;
    // Other bots' commands are not for this one: answering them could make two bots talk forever.
    if (user.is_bot) return log.debug('text command from a bot: ignored');
    if (edited) log.info('message edited: the text command runs again and edits its answers');
    let answers: EditableAnswers | undefined;
    const context =
      (command: Ctx['command']) =>
      (deps: ContextDeps): Ctx => {
        answers = entry?.editable ? this.links.answers(deps, message, TEXT_COMMANDS) : undefined;
        return new TextCommandContextImpl(deps, message, user, command, this.text.prefix, answers);
      };
    const shown = `${this.text.prefix}${name}`;
    if (!entry) {
      // A mistyped command: the nearest names, once a window per person whatever they mistype.
      const { run, deps } = this.chain.open(event, { handler: shown, log, correlationId });
      const ctx = context({ name, subcommand: null })(deps);
      if (!this.admit(ctx, '?')) return;
      const suggestions = found.suggestions.map((n) => `${this.text.prefix}${n}`).join(', ');
      return this.chain.speak(run, ctx, 'boardbot:unknownTextCommand', { command: shown, suggestions });
    }
    let target = entry.run;
    let line = found.line;
    let subcommand: string | null = null;
    if (!target) {
      const sub = /^\s*(\S+)/.exec(line);
      subcommand = sub?.[1]?.toLowerCase() ?? null;
      target = subcommand === null ? undefined : entry.subcommands.get(subcommand);
      if (!target || !sub) {
        // A known command without a (known) subcommand: the person is told which ones there are.
        const { run, deps } = this.chain.open(event, { handler: shown, log, correlationId });
        const subcommands = [...entry.subcommands.keys()].join(', ');
        const key = subcommand === null ? 'boardbot:needsSubcommand' : 'boardbot:noSubcommand';
        const ctx = context({ name, subcommand: null })(deps);
        if (this.admit(ctx)) await this.chain.speak(run, ctx, key, { command: shown, subcommand, subcommands });
        return this.links.finish(answers, log);
      }
      line = line.slice(sub[0].length);
    }
    log = log.child({ command: routeKey(name, subcommand) });
    const steps = commandSteps<Ctx>(target, (ctx) => this.read(ctx, line, target as CommandTarget), this.admit);
    // A re-run on an edit pays the cooldown like any run: its use is named by the edit event, so the
    // same edit handled again takes no second one (docs/guards-middleware-cooldowns.md).
    await this.chain.run(steps, target, event, { log, correlationId }, context({ name, subcommand }), undefined);
    await this.links.finish(answers, log);
  }

  /** Reads the arguments as the docs say, resolves names to ids, and makes the platform's checks. */
  private async read(ctx: Ctx, line: string, target: CommandTarget): Promise<RawOptions> {
    const tokens = tokenize(line);
    if (!tokens.ok) return { ok: false, problems: [tokens.problem] };
    const { options } = target.route;
    const given = readArguments(tokens.tokens, line, options, ctx.shownAs);
    if (!given.ok) return given;
    const resolved = await resolveNames(given.values, options, ctx);
    if (resolved.problems.length > 0) return { ok: false, problems: resolved.problems };
    const declared = options.map((d) => d.option);
    const checked = checkInvocationOptions(declared, resolved.values, {
      exists: (_type, id) => resolved.known.has(id),
    });
    if (checked.issues.length > 0) return { ok: false, problems: checked.issues.map(problemOf) };
    return { ok: true, values: checked.values };
  }
}
