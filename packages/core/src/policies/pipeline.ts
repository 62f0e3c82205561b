import type { Context } from '@opentelemetry/api';
import { type DispatchOutcome, noteRunEnded } from '../dispatch/outcome.js';
import { HandlerTimeoutError, ShutdownTimeoutError } from '../errors.js';
import type { Clock } from '../kernel/clock.js';
import type { AnyContext, HandlerContext, ReplyBody } from '../kernel/context.js';
import type { HandlerRun } from '../kernel/scope.js';
import type { HandlerOutcome } from '../telemetry/metrics-sink.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { CooldownStore } from './cooldown-store.js';
import type { GuardFn } from './guards.js';
import type { CooldownMetadata } from './metadata.js';
import { type Middleware, runMiddleware } from './middleware.js';
import type { ErrorHook } from './on-error.js';
import { RunningHandlers } from './running-handlers.js';
import { supervise } from './supervise.js';

/** One method of one handler instance, with the policies that run around it. */
export interface PolicedMethod {
  /** The handler instance, built by the container. */
  instance: Record<string, unknown>;
  method: string;
  /** The handler's class name. */
  className: string;
  /** `Class.method`, for logs. */
  label: string;
  guards: readonly { name: string; check: GuardFn }[];
  cooldown: CooldownMetadata | undefined;
  /** The class's `@OnError` method, if any. */
  errorHook: string | undefined;
}

/** A context that can answer the person (commands and messages; not events). */
export interface Answerable {
  readonly log: AnyContext['log'];
  /** Answers sent so far (compared around error hooks). */
  readonly answerCount: number;
  reply(body: ReplyBody): Promise<unknown>;
}

/** How a kind of handler tells a person that a policy held it back. */
export interface Refusals<C extends HandlerContext> {
  /** A guard denied: `false` for its default, or the guard's own reply. */
  denied(ctx: C, result: false | string): Promise<void>;
  /** A cooldown holds for `waitMs` more. */
  cooling(ctx: C, waitMs: number): Promise<void>;
}

/** The event a handler run belongs to. */
export interface EventMeta {
  /** The gateway event id, or `backfill:<message id>`. */
  id: string;
  /** What the idempotency keys of the event's runs derive from (`keyBasis` in `dispatch/key-basis.ts`). */
  keyBasis: string;
  /** Whether the event may have been handled by an earlier process (delivered again after a restart). */
  replayed: boolean;
  /** The event's trace context, when the bot traces. */
  trace?: Context | undefined;
  /** Where the event's dispatch collects how its handler runs ended. */
  outcome?: DispatchOutcome | undefined;
}

/**
 * Why a handler ended on something that is not a failure: a write the platform had already
 * applied on an earlier run of the same event (`422 idempotency_key_reused`: the run diverged from
 * the first one, whose effects stand), or an interaction that can no longer be answered on a replay.
 */
function quietStop(error: unknown): string | undefined {
  const e = error as { apiCode?: unknown; code?: unknown } | null;
  if (e?.apiCode === 'idempotency_key_reused') {
    return 'already applied: an earlier run of this event made this write (422 idempotency_key_reused); its effects stand and this run stops here';
  }
  if (e?.code === 'BOARDBOT_INTERACTION_EXPIRED') {
    return 'the interaction expired before this replay could answer it; not answering on the board, the first run may have answered';
  }
  return undefined;
}

/** A failed run's outcome: a timeout, or an error. */
function failureOutcome(error: unknown): HandlerOutcome {
  return error instanceof HandlerTimeoutError ? 'timeout' : 'error';
}

/** What the policies need from the bot. */
export interface PolicyDeps {
  middleware: readonly Middleware[];
  cooldowns: CooldownStore;
  clock: Clock;
  handlerTimeoutMs: number;
  /** Told to the person when a handler fails; false: nothing is said. */
  errorReply: string | false;
  onError: ErrorHook | undefined;
  /** Traces each handler run and reports it to the metrics. */
  telemetry: Telemetry;
}

/**
 * The policies every handler runs under, in order: guards, cooldown, middleware, then the handler
 * under supervision (timeout); a failure goes to the error hooks and to the person, never into an
 * exception that could stop other events.
 */
export class Policies {
  private readonly running = new RunningHandlers();

  /** @param deps - middleware, cooldown state, clock and failure policy */
  constructor(private readonly deps: PolicyDeps) {}

  /** Handler runs holding a worker right now. */
  get inFlight(): number {
    return this.running.size;
  }

  /**
   * Runs the guards in order; the first that denies stops the handler.
   * @returns whether the handler may run
   */
  async passGuards<C extends HandlerContext>(target: PolicedMethod, ctx: C, refuse: Refusals<C>): Promise<boolean> {
    for (const guard of target.guards) {
      const result = await guard.check(ctx);
      if (result === true || result === undefined) continue;
      ctx.log.info({ guard: guard.name, handler: target.label }, 'guard denied');
      await refuse.denied(ctx, result);
      return false;
    }
    return true;
  }

  /**
   * Takes one use of the handler's cooldown, if it has one.
   * @param who - the person's key (user id, or the webhook name)
   * @returns whether the handler may run
   */
  async passCooldown<C extends HandlerContext & { boardId: string }>(
    target: PolicedMethod,
    ctx: C,
    who: string,
    refuse: Refusals<C>,
  ): Promise<boolean> {
    const cooldown = target.cooldown;
    if (!cooldown) return true;
    const scope = cooldown.per === 'user' ? who : cooldown.per === 'board' ? ctx.boardId : 'app';
    const useId = ctx.idempotencyKey('boardbot.cooldown');
    const wait = await this.deps.cooldowns.take(`${target.label}:${cooldown.per}:${scope}`, cooldown, useId);
    if (wait === 0) return true;
    ctx.log.info({ handler: target.label, wait_ms: wait }, 'cooldown holds');
    await refuse.cooling(ctx, wait);
    return false;
  }

  /** Runs the middleware around the handler call. */
  around(ctx: HandlerContext, call: () => Promise<void>): Promise<void> {
    return runMiddleware(this.deps.middleware, ctx, call);
  }

  /**
   * Runs a handler pipeline as its run (in async context, so its writes carry keys derived from the
   * event), under supervision; a failure goes to the hooks and to the person. A run abandoned at
   * shutdown gets neither: the bot is closing its REST client.
   *
   * @param run - the handler run
   * @param answer - the context to tell the person through, when the kind of handler can answer
   */
  async run(
    target: PolicedMethod,
    run: HandlerRun,
    ctx: AnyContext,
    answer: Answerable | undefined,
    work: () => Promise<void>,
  ): Promise<void> {
    const { handlerTimeoutMs: timeoutMs, clock } = this.deps;
    const observed = this.deps.telemetry.handler(run, ctx);
    const outcome = await this.running.track(run, () => supervise(run, work, { timeoutMs, clock }));
    if (outcome.ok) return observed.end('ok');
    if (outcome.error instanceof ShutdownTimeoutError) {
      noteRunEnded(run.outcome, 'abandoned');
      return observed.end('abandoned', outcome.error);
    }
    const quiet = quietStop(outcome.error);
    if (quiet !== undefined) {
      const { code, apiCode } = outcome.error as { code?: unknown; apiCode?: unknown };
      ctx.log.info({ handler: target.label, code, api_code: apiCode }, quiet);
      return observed.end('already_applied');
    }
    noteRunEnded(run.outcome, 'failed');
    // The span ends after the runtime's answer, so the apology's REST call is its child.
    try {
      await run.answerAsRuntime(() => this.fail(target, ctx, answer, outcome.error));
    } finally {
      observed.end(failureOutcome(outcome.error), outcome.error);
    }
  }

  /**
   * Tells the person `text` outside any handler (e.g. an unknown command), as the runtime's answer
   * for `run`; logs (does not throw) when that fails.
   */
  async speak(run: HandlerRun, ctx: Answerable, text: string): Promise<void> {
    await run.answerAsRuntime(() => this.say(ctx, text));
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

  private async say(ctx: Answerable, text: string): Promise<void> {
    try {
      await ctx.reply(text);
    } catch (error) {
      ctx.log.warn({ err: error }, 'could not tell the person');
    }
  }

  private async fail(target: PolicedMethod, ctx: AnyContext, answer: Answerable | undefined, error: unknown) {
    ctx.log.error({ err: error, handler: target.label }, 'handler failed');
    const before = answer?.answerCount ?? 0;
    const hooks: [string, () => unknown][] = [];
    const hook = target.errorHook;
    if (hook) {
      hooks.push([
        `${target.className}.${hook}`,
        () => (target.instance[hook] as ErrorHook).call(target.instance, error, ctx),
      ]);
    }
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
    if (answer && this.deps.errorReply !== false && answer.answerCount === before) {
      await this.say(answer, this.deps.errorReply);
    }
  }
}
