import type { Logger } from '@boardbot/protocol';
import { HandlerTimeoutError, RunCancelledError, ShutdownTimeoutError, StreamStoppedError } from '../errors.js';
import type { ContextDeps } from '../kernel/base-context.js';
import type { AnyContext, TranslateValues } from '../kernel/context.js';
import type { CoreEnv } from '../kernel/env.js';
import type { EventMeta } from '../kernel/event.js';
import { HandlerRun, namedKey } from '../kernel/scope.js';
import { RUNTIME_TEXTS, TRANSLATOR } from '../kernel/translate.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { CooldownStore } from './cooldown-store.js';
import { type Middleware, runMiddleware } from './middleware.js';
import type { ErrorHook } from './on-error.js';
import { DEFAULT_REFUSAL_INTERVAL_MS, RefusalThrottle } from './refusal-throttle.js';
import { RunningHandlers } from './running-handlers.js';
import type { Answerable, HandlerSteps, HandlerTarget, RunName } from './steps.js';
import { supervise } from './supervise.js';

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

/** Whether `value` is a promise or another thenable, which `await` would wait for. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** What the chain needs from the bot. */
export interface ChainDeps {
  env: CoreEnv;
  middleware: readonly Middleware[];
  cooldowns: CooldownStore;
  handlerTimeoutMs: number;
  /** Told to the person when a handler fails; false: nothing is said. */
  errorReply: string | false;
  /**
   * The window of the refusals a person is told on the board, per command (`createBot({ refusalIntervalMs })`).
   * @defaultValue {@link DEFAULT_REFUSAL_INTERVAL_MS}
   */
  refusalIntervalMs?: number | undefined;
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
  /** Runs that released their slot and still go on. */
  private readonly released = new Set<Promise<void>>();
  private readonly settledWaiters: (() => void)[] = [];
  private readonly refusals: RefusalThrottle;

  /** @param deps - the bot's environment, middleware, cooldown state, refusal window and failure policy */
  constructor(private readonly deps: ChainDeps) {
    const interval = deps.refusalIntervalMs ?? DEFAULT_REFUSAL_INTERVAL_MS;
    this.refusals = new RefusalThrottle(() => deps.env.clock.now(), interval);
  }

  /** Handler runs going right now (those holding a worker, and streams that released theirs). */
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
    const { env } = this.deps;
    // The run's own REST facade: its calls carry the run's keys even when made outside its async flow.
    const rest = env.rest.scoped(run.calls.handler);
    return {
      run,
      deps: { app: env.app(), rest, run, now: () => env.clock.now(), clock: env.clock, services: env.services },
    };
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
    const done = this.execute(steps, target, run, ctx, input);
    const outcome = run.outcome;
    if (!outcome) return done;
    // A run that hands its slot back (a streamed answer, after its first post) ends its part of the
    // dispatch now: the rest is held work, which the event's completion waits for.
    return new Promise<void>((resolve) => {
      run.onSlotReleased(() => {
        this.released.add(done);
        void done.finally(() => {
          this.released.delete(done);
          if (this.released.size === 0) for (const wake of this.settledWaiters.splice(0)) wake();
        });
        if (outcome.held) outcome.held.push(done);
        else outcome.held = [done];
        resolve();
      });
      void done.then(resolve);
    });
  }

  /** Resolves once no run that released its slot (see `HandlerRun.releaseSlot`) is still going. */
  settled(): Promise<void> {
    if (this.released.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /** The run through the chain under supervision, and how it ended; never rejects. */
  private async execute<C extends AnyContext, I>(
    steps: HandlerSteps<C, I>,
    target: HandlerTarget,
    run: HandlerRun,
    ctx: C,
    input: I,
  ): Promise<void> {
    const { handlerTimeoutMs: timeoutMs } = this.deps;
    const observed = this.deps.telemetry.handler(run, ctx);
    // The locale is chosen before anything (a guard, an option refusal) can speak; a bot without
    // i18n (most) pays no extra async step per run for it.
    const translator = this.deps.env.services.find(TRANSLATOR);
    const work = translator
      ? async () => {
          run.locale = await translator.locale(ctx);
          await this.steps(steps, target, run, ctx, input);
        }
      : () => this.steps(steps, target, run, ctx, input);
    const outcome = await this.running.track(run, () =>
      supervise(run, work, { timeoutMs, clock: this.deps.env.clock }),
    );
    if (outcome.ok) return observed.end('ok');
    const stopped = outcome.error instanceof StreamStoppedError ? outcome.error.reason : undefined;
    if (outcome.error instanceof ShutdownTimeoutError || stopped === 'interrupted' || stopped === 'lost') {
      // Not a failure: the bot is stopping (the next start completes an interrupted answer), or
      // another replica owns the event now and completes the answer.
      if (run.outcome) run.outcome.abandoned = true;
      if (stopped === 'interrupted') {
        ctx.log.info(
          { handler: target.label },
          'streamed answer interrupted by stop(): its event is left for the next start',
        );
      } else if (stopped === 'lost') {
        ctx.log.warn(
          { handler: target.label, event_id: run.eventId },
          "streamed answer stopped writing: this replica lost the event's partition, its new owner completes it",
        );
      }
      return observed.end('abandoned', outcome.error);
    }
    if (outcome.error instanceof RunCancelledError) {
      // A burst's newer message took over (burst 'latest'): nothing failed, nothing to apologise for.
      ctx.log.info({ handler: target.label }, 'run cancelled by a newer message of its burst');
      return observed.end('cancelled');
    }
    const quiet = quietStop(outcome.error);
    if (quiet !== undefined) {
      const { code, apiCode } = outcome.error as { code?: unknown; apiCode?: unknown };
      ctx.log.info({ handler: target.label, code, api_code: apiCode }, quiet);
      return observed.end('already_applied');
    }
    if (run.outcome) run.outcome.failed = true;
    // The span ends after the runtime's answer, so the apology's REST call is its child.
    try {
      await run.answerAsRuntime(() => this.fail(target, ctx, steps.answer?.(ctx), outcome.error));
    } finally {
      observed.end(outcome.error instanceof HandlerTimeoutError ? 'timeout' : 'error', outcome.error);
    }
  }

  /**
   * Tells the person the runtime text `key` outside any handler (e.g. an unknown command), in their
   * locale, as the runtime's answer for `run`; logs (does not throw) when that fails.
   */
  async speak<C extends AnyContext & Answerable>(
    run: HandlerRun,
    ctx: C,
    key: string,
    values: TranslateValues,
  ): Promise<void> {
    // Only a bot with i18n reads the person's locale setting.
    const translator = this.deps.env.services.find(TRANSLATOR);
    if (translator) run.locale = await translator.locale(ctx);
    await run.answerAsRuntime(() => this.say(ctx, ctx.t(key, values)));
  }

  /**
   * Whether a refusal to `who` about `what` may be posted on the board now: the one throttle every
   * kind's refusals posted as messages go through (a text command's, a message listener's guard's
   * words), at most one per person and command in `refusalIntervalMs`; one held back is logged.
   * @param who - the person (a user id, or a webhook's name)
   * @param what - the command as typed (`!daily`), a listener's label, or what else was refused
   * @param log - the run's logger
   */
  mayRefuse(who: string, what: string, log: Logger): boolean {
    return this.refusals.admit(who, what, log);
  }

  /**
   * Tells every handler running, and every one that starts from now on, that the bot is stopping:
   * their streamed answers end at once, marked interrupted (the start of a stop).
   */
  interruptRunning(): void {
    this.running.interruptAll();
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
    // Each step that does not apply is skipped without an `await`: on Node 20 every promise a run
    // makes costs the async-context hook's work too, and a handler without guards or a cooldown
    // (most) would otherwise pay for four.
    if (steps.guards && target.guards.length > 0 && !(await this.passGuards(target, ctx, steps.guards))) return;
    const made = steps.arguments(ctx, input);
    const args = isThenable(made) ? await made : made;
    if (args === undefined) return;
    if (steps.cooldown && target.cooldown && !(await this.passCooldown(target, run, ctx, input, steps.cooldown))) {
      return;
    }
    const call = async () => {
      const returned = target.call(...args);
      const result = isThenable(returned) ? await returned : returned;
      await steps.settle?.(ctx, result);
    };
    // Without middleware (read at each run: `bot.use` may add some), the handler is called directly.
    const { middleware } = this.deps;
    await (steps.middleware && middleware.length > 0 ? runMiddleware(middleware, steps.middleware(ctx), call) : call());
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
      await step.denied(ctx, result, target);
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
    // The class's `@OnError` hook, then the bot's `onError`; one that throws is logged, the next still runs.
    const { onError } = this.deps;
    // The bot's onError is called as the plain function it was given (`this` undefined), not as a wrapper's method.
    const global = onError && { label: 'onError', call: (e: unknown, c: AnyContext) => onError(e, c) };
    for (const hook of [target.errorHook, global]) {
      try {
        await hook?.call(error, ctx);
      } catch (hookError) {
        ctx.log.error({ err: hookError, hook: hook?.label }, 'error hook failed');
      }
    }
    // The person hears something went wrong, unless a hook already told them, or the error itself did
    // (a streamed answer that stopped ends with a visible marker).
    const { errorReply } = this.deps;
    const told = (error as { personTold?: unknown } | null)?.personTold === true;
    if (answer && errorReply !== false && !told && answer.answerCount === before) {
      // The default words are the runtime's text, in the person's locale; the bot's own are said as given.
      await this.say(answer, errorReply === RUNTIME_TEXTS.errorReply ? answer.t('boardbot:errorReply') : errorReply);
    }
  }
}
