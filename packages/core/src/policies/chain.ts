import type { Logger } from '@boardbot/protocol';
import { HandlerTimeoutError, ShutdownTimeoutError } from '../errors.js';
import type { ContextDeps } from '../kernel/base-context.js';
import type { AnyContext, HandlerContext, ReplyBody } from '../kernel/context.js';
import { type CoreEnv, contextDeps } from '../kernel/env.js';
import type { EventMeta } from '../kernel/event.js';
import { noteRunEnded } from '../kernel/outcome.js';
import { HandlerRun, namedKey } from '../kernel/scope.js';
import type { HandlerOutcome } from '../telemetry/metrics-sink.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { CooldownStore } from './cooldown-store.js';
import type { GuardFn } from './guards.js';
import type { CooldownMetadata } from './metadata.js';
import { type Middleware, runMiddleware } from './middleware.js';
import type { ErrorHook } from './on-error.js';
import { RunningHandlers } from './running-handlers.js';
import { supervise } from './supervise.js';

/** One method of one handler instance, bound to it, with the policies declared around it. */
export interface HandlerTarget {
  /** `Class.method`, for logs, metrics and the run's idempotency keys. */
  label: string;
  /** Calls the method on its instance with the arguments its kind gives. */
  call: (...args: readonly unknown[]) => unknown;
  guards: readonly { name: string; check: GuardFn }[];
  cooldown: CooldownMetadata | undefined;
  /** The class's `@OnError` method, bound, with its `Class.method` name. */
  errorHook: { label: string; call: ErrorHook } | undefined;
}

/** A context that can answer the person (commands and messages; not events). */
export interface Answerable {
  readonly log: AnyContext['log'];
  /** Answers sent so far (compared around error hooks). */
  readonly answerCount: number;
  reply(body: ReplyBody): Promise<unknown>;
}

/**
 * What one kind of handler supplies to the chain: its context's views for each step it runs, how it
 * refuses, and its handler's arguments. A step the kind leaves out is not run for it (today events
 * and ticks run no guards, cooldown or middleware: they have no person to refuse). The chain alone
 * orders the steps: guards, arguments, cooldown, middleware, the handler, what its result does.
 *
 * @typeParam C - the kind's context
 * @typeParam I - what the kind hands each run besides its context (the event's payload...)
 */
export interface HandlerSteps<C extends AnyContext, I> {
  /** Run the target's guards; `denied` tells the person (a guard's `false`, or its own words). */
  guards?: { context(ctx: C): HandlerContext; denied(ctx: C, result: false | string): Promise<void> };
  /** The handler's arguments (options parsed and checked); `undefined` when the kind told the person why not. */
  arguments(ctx: C, input: I): readonly unknown[] | undefined | Promise<readonly unknown[] | undefined>;
  /** Take a use of the target's cooldown, counted per `who` (per user) and per `board`. */
  cooldown?: { who(ctx: C, input: I): string; board(ctx: C): string; cooling(ctx: C, waitMs: number): Promise<void> };
  /** Run the bot's middleware around the handler, on this view of the context. */
  middleware?: (ctx: C) => HandlerContext;
  /** What the handler's returned value does (a reply body is sent). */
  settle?(ctx: C, result: unknown): Promise<void>;
  /** Runs once the middleware returned (the handler ran, or a middleware stopped it). */
  finished?(ctx: C, target: HandlerTarget): void;
  /** Who hears an apology when the handler fails; none: nobody is told. */
  answer?(ctx: C): Answerable;
}

/** Names a run: its handler's label, its logger, and the correlation id its REST calls carry. */
export interface RunName {
  handler: string;
  log: Logger;
  correlationId: string;
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

/** What the chain needs from the bot. */
export interface ChainDeps {
  env: CoreEnv;
  middleware: readonly Middleware[];
  cooldowns: CooldownStore;
  handlerTimeoutMs: number;
  /** Told to the person when a handler fails; false: nothing is said. */
  errorReply: string | false;
  onError: ErrorHook | undefined;
  /** Traces each handler run and reports it to the metrics. */
  telemetry: Telemetry;
}

/**
 * The one place a handler runs, whatever its kind: it makes the run, then takes it through the
 * guards, the arguments, the cooldown, the middleware and the handler, under supervision (timeout);
 * a failure goes to the error hooks and to the person, never into an exception that could stop
 * other events.
 */
export class PolicyChain {
  private readonly running = new RunningHandlers();

  /** @param deps - the bot's environment, middleware, cooldown state and failure policy */
  constructor(private readonly deps: ChainDeps) {}

  /** Handler runs holding a worker right now. */
  get inFlight(): number {
    return this.running.size;
  }

  /**
   * Makes the run of one handler for one event, and what its context is made from: the one place a
   * run is made, so every kind derives its idempotency keys the same way.
   * @param event - the event (or tick) the run belongs to
   * @param name - the handler's label, logger and correlation id
   */
  open(event: EventMeta, name: RunName): { run: HandlerRun; deps: ContextDeps } {
    const run = new HandlerRun({
      eventId: event.id,
      keyBasis: event.keyBasis,
      handler: name.handler,
      correlationId: name.correlationId,
      log: name.log,
      replayed: event.replayed,
      trace: event.trace,
      outcome: event.outcome,
    });
    return { run, deps: contextDeps(this.deps.env, run) };
  }

  /**
   * Runs one handler for one event through the chain; never rejects.
   * @param steps - what the handler's kind supplies
   * @param target - the handler
   * @param event - the event (or tick)
   * @param name - the run's logger and correlation id
   * @param context - builds the kind's context
   * @param input - what the kind hands its steps besides the context
   */
  async run<C extends AnyContext, I>(
    steps: HandlerSteps<C, I>,
    target: HandlerTarget,
    event: EventMeta,
    name: Omit<RunName, 'handler'>,
    context: (deps: ContextDeps) => C,
    input: I,
  ): Promise<void> {
    const { run, deps } = this.open(event, { ...name, handler: target.label });
    const ctx = context(deps);
    const { handlerTimeoutMs: timeoutMs } = this.deps;
    const observed = this.deps.telemetry.handler(run, ctx);
    const work = () => this.steps(steps, target, run, ctx, input);
    const outcome = await this.running.track(run, () =>
      supervise(run, work, { timeoutMs, clock: this.deps.env.clock }),
    );
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
      await run.answerAsRuntime(() => this.fail(target, ctx, steps.answer?.(ctx), outcome.error));
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

  /** The steps, in their one order; each one the kind left out is skipped. */
  private async steps<C extends AnyContext, I>(
    steps: HandlerSteps<C, I>,
    target: HandlerTarget,
    run: HandlerRun,
    ctx: C,
    input: I,
  ): Promise<void> {
    if (steps.guards && !(await this.passGuards(target, ctx, steps.guards))) return;
    const args = await steps.arguments(ctx, input);
    if (args === undefined) return;
    if (steps.cooldown && !(await this.passCooldown(target, run, ctx, input, steps.cooldown))) return;
    const call = async () => {
      const result = await target.call(...args);
      await steps.settle?.(ctx, result);
    };
    await (steps.middleware ? runMiddleware(this.deps.middleware, steps.middleware(ctx), call) : call());
    steps.finished?.(ctx, target);
  }

  /** Runs the guards in order; the first that denies stops the handler. */
  private async passGuards<C extends AnyContext>(
    target: HandlerTarget,
    ctx: C,
    step: NonNullable<HandlerSteps<C, never>['guards']>,
  ): Promise<boolean> {
    for (const guard of target.guards) {
      const result = await guard.check(step.context(ctx));
      if (result === true || result === undefined) continue;
      ctx.log.info({ guard: guard.name, handler: target.label }, 'guard denied');
      await step.denied(ctx, result);
      return false;
    }
    return true;
  }

  /** Takes one use of the handler's cooldown, if it has one. */
  private async passCooldown<C extends AnyContext, I>(
    target: HandlerTarget,
    run: HandlerRun,
    ctx: C,
    input: I,
    step: NonNullable<HandlerSteps<C, I>['cooldown']>,
  ): Promise<boolean> {
    const cooldown = target.cooldown;
    if (!cooldown) return true;
    const scope = cooldown.per === 'user' ? step.who(ctx, input) : cooldown.per === 'board' ? step.board(ctx) : 'app';
    const useId = namedKey(run, 'boardbot.cooldown');
    const wait = await this.deps.cooldowns.take(`${target.label}:${cooldown.per}:${scope}`, cooldown, useId);
    if (wait === 0) return true;
    ctx.log.info({ handler: target.label, wait_ms: wait }, 'cooldown holds');
    await step.cooling(ctx, wait);
    return false;
  }

  private async say(ctx: Answerable, text: string): Promise<void> {
    try {
      await ctx.reply(text);
    } catch (error) {
      ctx.log.warn({ err: error }, 'could not tell the person');
    }
  }

  private async fail(target: HandlerTarget, ctx: AnyContext, answer: Answerable | undefined, error: unknown) {
    ctx.log.error({ err: error, handler: target.label }, 'handler failed');
    const before = answer?.answerCount ?? 0;
    const hooks: [string, () => unknown][] = [];
    const hook = target.errorHook;
    if (hook) hooks.push([hook.label, () => hook.call(error, ctx)]);
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
