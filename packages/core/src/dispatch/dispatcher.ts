import { randomUUID } from 'node:crypto';
import type { App, Interaction, Logger, Message } from '@boardbot/protocol';
import { AuthorCache } from '../context/authors.js';
import type { ContextDeps } from '../context/base-context.js';
import { isReplyBody } from '../context/body.js';
import { CommandContextImpl } from '../context/command-context.js';
import { EventContextImpl } from '../context/event-context.js';
import { MessageContextImpl } from '../context/message-context.js';
import type { AnyContext, ExhaustedInteraction } from '../context/types.js';
import type { ErrorHook } from '../decorators/on-error.js';
import { ShutdownTimeoutError } from '../errors.js';
import type { MessageEventName } from '../metadata/types.js';
import { parseOptions } from '../options/parse-options.js';
import type { Clock } from '../runtime/clock.js';
import type { BotRest } from '../runtime/ports.js';
import { Cooldowns } from './cooldowns.js';
import { DEFAULT_DENIED_REPLY } from './guard.js';
import { HandlerRun, RunningHandlers } from './handler-run.js';
import { type Middleware, runMiddleware } from './middleware.js';
import { matchMessage, type Routes, routeKey, type Target } from './routes.js';
import { supervise } from './supervise.js';

/** A gateway event as the runtime dispatches it (the `@boardbot/gateway` dispatch shape). */
export interface BotEvent {
  name: string;
  id: string;
  data: unknown;
}

/** What the dispatcher needs from the bot. */
export interface DispatcherDeps {
  routes: Routes;
  middleware: readonly Middleware[];
  rest: BotRest;
  /** The app, known once the bot started. */
  app: () => App;
  log: Logger;
  clock: Clock;
  handlerTimeoutMs: number;
  /** Told to the person when a handler fails; false: nothing is said. */
  errorReply: string | false;
  onError: ErrorHook | undefined;
  /** What a sixth answer to an interaction does. */
  exhaustedInteraction: ExhaustedInteraction;
}

type Answering = CommandContextImpl<Record<string, unknown>> | MessageContextImpl;

/**
 * Runs the handlers of one event: routes it, runs guards, option validation, cooldown, middleware
 * and the handler under supervision, and turns every failure into a log line, the error hooks and
 * a reply — never into an exception that could stop other events.
 */
export class Dispatcher {
  private readonly cooldowns: Cooldowns;
  private readonly authors: AuthorCache;
  private readonly running = new RunningHandlers();

  /** @param deps - routes, middleware, I/O and policy */
  constructor(private readonly deps: DispatcherDeps) {
    this.cooldowns = new Cooldowns(() => deps.clock.now());
    this.authors = new AuthorCache(deps.rest, () => deps.clock.now());
  }

  /** Handles one event; resolves when all its handlers ended or timed out; never rejects. */
  async dispatch(event: BotEvent): Promise<void> {
    const data = (event.data ?? {}) as { interaction?: Interaction; message?: Message };
    const work = [this.onEvent(event)];
    if (event.name === 'interaction.create' && data.interaction) work.push(this.onInteraction(event, data.interaction));
    else if (isMessageEvent(event.name) && data.message) work.push(this.onMessage(event, event.name, data.message));
    await Promise.all(work);
  }

  /**
   * Abandons every handler still running (at shutdown): aborts its `ctx.signal` with a
   * `ShutdownTimeoutError`, drops its later writes, and logs it by name.
   * @param shutdownTimeoutMs - the wait that passed, for the messages
   * @returns the runs abandoned
   */
  abandonRunning(shutdownTimeoutMs: number): HandlerRun[] {
    return this.running.abandonAll(
      (handler) => new ShutdownTimeoutError(handler, shutdownTimeoutMs),
      'handler abandoned at shutdown: its signal is aborted, its writes are dropped',
    );
  }

  private contextDeps(log: Logger, correlationId: string, run: HandlerRun): ContextDeps {
    const { rest, clock } = this.deps;
    return { app: this.deps.app(), rest, log, correlationId, run, now: () => clock.now() };
  }

  private async onInteraction(event: BotEvent, interaction: Interaction): Promise<void> {
    const { name, subcommand } = interaction.command;
    const correlationId = randomUUID();
    const log = this.deps.log.child({
      event_id: event.id,
      correlation_id: correlationId,
      interaction_id: interaction.id,
      command: routeKey(name, subcommand),
    });
    const target = this.deps.routes.commands.get(routeKey(name, subcommand));
    const run = new HandlerRun(target?.label ?? `/${routeKey(name, subcommand)}`, event.id, log);
    const ctx = new CommandContextImpl<Record<string, unknown>>(
      this.contextDeps(log, correlationId, run),
      interaction,
      this.deps.exhaustedInteraction,
    );
    if (!target) {
      log.warn('no handler for this command: is the registered set stale?');
      await this.say(ctx, `/${routeKey(name, subcommand)} is not available right now.`);
      return;
    }
    await this.run(target, ctx, run, async () => {
      if (!(await this.passGuards(target, ctx))) return;
      const { optionsClass, options } = target.route;
      const parsed = await parseOptions(optionsClass, options, interaction.command.options);
      if (parsed.unknown.length > 0) log.debug({ unknown: parsed.unknown }, 'ignored unknown options');
      if (!parsed.ok) {
        log.info({ problems: parsed.problems }, 'invalid options: told the person, handler not called');
        await ctx.reply(
          `Sorry, /${routeKey(name, subcommand)} cannot run:\n${parsed.problems.map((p) => `- ${p}`).join('\n')}`,
        );
        return;
      }
      ctx.setOptions(parsed.value as Record<string, unknown>);
      if (!(await this.passCooldown(target, ctx, interaction.user.id))) return;
      await runMiddleware(this.deps.middleware, ctx, async () => {
        const result = await (target.instance[target.method] as Function).call(target.instance, ctx, parsed.value);
        if (isReplyBody(result) && !ctx.replied) await ctx.reply(result);
      });
      if (!ctx.replied)
        log.warn({ handler: target.label }, 'command finished without replying: the person sees no answer');
    });
  }

  private async onMessage(event: BotEvent, name: MessageEventName, message: Message): Promise<void> {
    const own = message.author !== null && message.author === this.deps.app().bot_user_id;
    const matched = this.deps.routes.messages[name].flatMap((target) => {
      // A bot answering its own messages loops; only listeners that ask see them.
      if (own && !target.listener.includeOwn) return [];
      try {
        const match = matchMessage(target.listener.matcher, message);
        return match === false ? [] : [{ target, match }];
      } catch (error) {
        this.deps.log.error({ err: error, handler: target.label, event_id: event.id }, 'message matcher threw');
        return [];
      }
    });
    if (matched.length === 0) return;
    const correlationId = randomUUID();
    const log = this.deps.log.child({
      event_id: event.id,
      correlation_id: correlationId,
      message_id: message.id,
      board_id: message.board_id,
    });
    const options = { requestId: correlationId, logger: log };
    const author = message.author === null ? null : await this.authors.get(message.author, log, options);
    await Promise.all(
      matched.map(({ target, match }) => {
        const run = new HandlerRun(target.label, event.id, log);
        const ctx = new MessageContextImpl(this.contextDeps(log, correlationId, run), name, message, author, match);
        return this.run(target, ctx, run, async () => {
          if (!(await this.passGuards(target, ctx))) return;
          const who = message.author ?? `webhook:${message.webhook_name ?? ''}`;
          if (!(await this.passCooldown(target, ctx, who))) return;
          await runMiddleware(this.deps.middleware, ctx, async () => {
            const result = await (target.instance[target.method] as Function).call(target.instance, ctx);
            if (isReplyBody(result) && !ctx.replied) await ctx.reply(result);
          });
        });
      }),
    );
  }

  private async onEvent(event: BotEvent): Promise<void> {
    const targets = this.deps.routes.events.get(event.name);
    if (!targets) return;
    const correlationId = randomUUID();
    const log = this.deps.log.child({ event_id: event.id, event: event.name, correlation_id: correlationId });
    await Promise.all(
      targets.map((target) => {
        const run = new HandlerRun(target.label, event.id, log);
        const ctx = new EventContextImpl(this.contextDeps(log, correlationId, run), {
          name: event.name,
          id: event.id,
        });
        return this.run(target, ctx, run, async () => {
          await (target.instance[target.method] as Function).call(target.instance, event.data, ctx);
        });
      }),
    );
  }

  private async passGuards(target: Target, ctx: Answering): Promise<boolean> {
    for (const guard of target.guards) {
      const result = await guard.check(ctx);
      if (result === true || result === undefined) continue;
      ctx.log.info({ guard: guard.name, handler: target.label }, 'guard denied');
      // A denied command always gets an answer; a listener only when the guard gave one.
      if (typeof result === 'string') await ctx.reply(result);
      else if (ctx.kind === 'command') await ctx.reply(DEFAULT_DENIED_REPLY);
      return false;
    }
    return true;
  }

  private async passCooldown(target: Target, ctx: Answering, userKey: string): Promise<boolean> {
    const cooldown = target.cooldown;
    if (!cooldown) return true;
    const scope = cooldown.per === 'user' ? userKey : cooldown.per === 'board' ? ctx.boardId : 'app';
    const wait = this.cooldowns.take(`${target.label}:${cooldown.per}:${scope}`, cooldown);
    if (wait === 0) return true;
    const seconds = Math.ceil(wait / 1000);
    ctx.log.info({ handler: target.label, wait_ms: wait }, 'cooldown holds');
    if (ctx.kind === 'command') {
      await ctx.reply(
        `Slow down: /${routeKey(ctx.command.name, ctx.command.subcommand)} can be used again in ${seconds} s.`,
      );
    }
    return false;
  }

  /**
   * Runs a handler pipeline under supervision; failures go to the hooks and to the person. A run
   * abandoned at shutdown gets neither: the bot is closing its REST client.
   */
  private async run(target: Target, ctx: AnyContext, run: HandlerRun, work: () => Promise<void>) {
    const { handlerTimeoutMs: timeoutMs, clock } = this.deps;
    const outcome = await this.running.track(run, () => supervise(run, work, { timeoutMs, clock }));
    if (outcome.ok || outcome.error instanceof ShutdownTimeoutError) return;
    await run.answerAsRuntime(() => this.fail(target, ctx, outcome.error));
  }

  private async fail(target: Target, ctx: AnyContext, error: unknown): Promise<void> {
    ctx.log.error({ err: error, handler: target.label }, 'handler failed');
    const answering = ctx.kind === 'event' ? undefined : (ctx as Answering);
    const before = answering?.answerCount ?? 0;
    const hook = target.handler.errorHook;
    const hooks: [string, () => unknown][] = [];
    if (hook)
      hooks.push([
        `${target.handler.cls.name}.${hook}`,
        () => (target.instance[hook] as ErrorHook).call(target.instance, error, ctx),
      ]);
    const global = this.deps.onError;
    if (global) hooks.push(['onError', () => global(error, ctx)]);
    for (const [name, call] of hooks) {
      try {
        await call();
      } catch (hookError) {
        ctx.log.error({ err: hookError, hook: name }, 'error hook failed');
      }
    }
    // The person hears something went wrong, unless a hook already told them.
    if (answering && this.deps.errorReply !== false && answering.answerCount === before) {
      await this.say(answering, this.deps.errorReply);
    }
  }

  private async say(ctx: Answering, text: string): Promise<void> {
    try {
      await ctx.reply(text);
    } catch (error) {
      ctx.log.warn({ err: error }, 'could not tell the person');
    }
  }
}

function isMessageEvent(name: string): name is MessageEventName {
  return name === 'message.create' || name === 'message.edit' || name === 'message.delete';
}
