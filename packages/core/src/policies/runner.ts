import type { Logger } from '@boardbot/protocol';
import { type Context, context as otelContext, ROOT_CONTEXT } from '@opentelemetry/api';
import { ShutdownTimeoutError } from '../errors.js';
import type { AnyContext } from '../kernel/context.js';
import type { CoreEnv } from '../kernel/env.js';
import { HandlerRun } from '../kernel/run.js';
import { type Telemetry, TRACE } from '../telemetry/telemetry.js';
import { Deadlines } from './deadlines.js';
import { type EndingRule, endingOf, SUPERVISION_ENDINGS } from './endings.js';
import { answerFailure, type FailurePolicy, say } from './failure.js';
import { isThenable, type Plan, Plans, runPlan, sequence } from './plan.js';
import { RefusalThrottle } from './refusal-throttle.js';
import { RunCalls } from './run-calls.js';
import { RUNS, RunningHandlers, type RunSlots } from './running-handlers.js';
import type { Answerable, HandlerTarget, KindRules, Passage, RunRequest, Runs, Stage } from './stages.js';
import { supervise } from './supervise.js';

/** What the runner needs from the bot. */
export interface RunnerDeps extends FailurePolicy {
  env: CoreEnv;
  handlerTimeoutMs: number;
  /** Traces each handler run and reports it to the metrics. */
  telemetry: Telemetry;
  /** Every stage, in the order the features and plugins gave them. */
  stages: readonly Stage[];
  /** The features' and plugins' endings, in order (supervision's come first). */
  endings: readonly EndingRule[];
  /** The window of the refusals a person is told on the board, per command (`createBot({ refusalIntervalMs })`). */
  refusalIntervalMs: number;
}

const NO_ARGS: readonly unknown[] = [];

const probe = (): void => {};
/** Set once a context manager was seen: then it is assumed to stay (see `contextManaged`). */
let managed = false;

/**
 * Whether a context manager is registered with OpenTelemetry's API (an SDK's, such as NodeSDK's
 * AsyncLocalStorage one). Without one, `context.with` only calls its function (after copying its
 * arguments twice), so a handler run need not enter its trace context through it: the API's no-op
 * manager binds a function to nothing and returns it as it is, which is the test. Once a manager was
 * seen the answer stays yes without asking again (binding through a real one costs a wrapper);
 * entering through `context.with` after it was removed is still right, only not free.
 */
function contextManaged(): boolean {
  if (!managed) managed = otelContext.bind(ROOT_CONTEXT, probe) !== probe;
  return managed;
}

/** A run on its way through the stages. */
class Pass implements Passage {
  args = NO_ARGS;
  result: unknown = undefined;

  constructor(
    readonly run: HandlerRun,
    readonly ctx: AnyContext,
    readonly target: HandlerTarget,
    readonly rules: KindRules,
    readonly input: unknown,
    /** The event's trace context. */
    readonly trace: Context | undefined,
  ) {}
}

/**
 * The one place a handler runs, whatever its kind: makes the run and its context, takes it through
 * the stages in their phases (`PHASES`) under supervision, and ends it as the first ending that
 * knows its error says (the default: the failure path, error hooks then the apology). It knows no
 * feature: each one, and each plugin, gives its stages and endings. Never rejects.
 */
export class Runner implements Runs, RunSlots {
  private readonly running = new RunningHandlers();
  private readonly plans: Plans;
  private readonly endings: readonly EndingRule[];
  private readonly interrupt = new AbortController();
  private readonly refusals: RefusalThrottle;
  private readonly deadlines: Deadlines;

  /** @param deps - the bot's environment, stages, endings, refusal window and failure policy */
  constructor(private readonly deps: RunnerDeps) {
    this.refusals = new RefusalThrottle(() => deps.env.clock.now(), deps.refusalIntervalMs);
    this.deadlines = new Deadlines(deps.env.clock);
    this.plans = new Plans(deps.stages);
    this.endings = [...SUPERVISION_ENDINGS, ...deps.endings];
    deps.env.services.set(RUNS, this);
  }

  /** Handler runs going right now (those holding a worker, and streams that released theirs). */
  get inFlight(): number {
    return this.running.size;
  }

  get stopping(): AbortSignal {
    return this.interrupt.signal;
  }

  /** Plans every handler's run again at its next run: what the stages apply to changed (`use()` added middleware). */
  replan(): void {
    this.plans.replan();
  }

  run<C extends AnyContext>(request: RunRequest<C>): Promise<void> {
    const pass = this.open(request as RunRequest, request.target, false);
    const outcome = pass.run.outcome;
    if (outcome === undefined) return this.execute(pass, undefined);
    // A run that hands its slot back (a streamed answer, after its first post) ends its part of the
    // dispatch then: the rest is held work, which the event's completion waits for.
    return new Promise<void>((resolve) => {
      let done: Promise<void> | undefined;
      const release = (): void => {
        // Released before `execute` returned (its stages ran synchronously so far): once it has.
        if (done === undefined) queueMicrotask(release);
        else {
          this.running.hold(done, outcome);
          resolve();
        }
      };
      done = this.execute(pass, release);
      void done.then(resolve);
    });
  }

  async speak<C extends AnyContext>(
    request: Omit<RunRequest<C>, 'target'> & { label: string },
    key: string,
    values: Record<string, unknown>,
  ): Promise<void> {
    const target: HandlerTarget = {
      label: request.label,
      call: () => {},
      guards: [],
      cooldown: undefined,
      errorHook: undefined,
    };
    const pass = this.open({ ...(request as Omit<RunRequest, 'target'>), target }, target, true);
    // The `open` stages (the locale) run before the runtime speaks, as before a handler.
    const opened = sequence(this.plans.of(target, pass.rules).open, pass);
    if (isThenable(opened)) await opened;
    const ctx = pass.ctx as unknown as Answerable;
    await say(ctx, ctx.t(key, values));
  }

  mayRefuse(who: string, what: string, log: Logger): boolean {
    return this.refusals.admit(who, what, log);
  }

  releaseSlot(run: HandlerRun): void {
    this.running.release(run);
  }

  /** Resolves once no run that released its slot is still going. */
  settled(): Promise<void> {
    return this.running.settled();
  }

  /**
   * Tells every handler running, and every one that starts from now on, that the bot is stopping:
   * their streamed answers end at once, marked interrupted (the start of a stop).
   */
  interruptRunning(): void {
    this.interrupt.abort();
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

  /** Makes the run of a request, and its context (the handler's, or the runtime's for `speak`). */
  private open(request: RunRequest, target: HandlerTarget, runtime: boolean): Pass {
    const { event, correlationId, log } = request;
    const run = new HandlerRun({ event, handler: target.label, correlationId, log });
    const { env } = this.deps;
    const voice = new RunCalls(run, env.rest, runtime, event.trace);
    const ctx = request.context({ app: env.app(), run, voice, clock: env.clock, services: env.services });
    return new Pass(run, ctx, target, request.rules, request.input, event.trace);
  }

  /** The run through the stages under supervision, and how it ended; never rejects. */
  private async execute(pass: Pass, release: (() => void) | undefined): Promise<void> {
    const { run } = pass;
    const { telemetry, handlerTimeoutMs: timeoutMs, env } = this.deps;
    const observed = telemetry.handler(run, pass.ctx, pass.trace);
    const plan = this.plans.of(pass.target, pass.rules);
    this.running.add(run, release);
    const outcome = await supervise(run, () => this.enter(plan, pass), {
      timeoutMs,
      clock: env.clock,
      deadlines: this.deadlines,
    });
    this.running.delete(run);
    if (outcome.ok) return observed.end('ok');
    const ending = endingOf(this.endings, outcome.error, pass);
    if (ending.abandoned && run.outcome) run.outcome.abandoned = true;
    ending.log?.(pass);
    if (!ending.failed) return observed.end(ending.outcome, outcome.error);
    if (run.outcome) run.outcome.failed = true;
    // The span ends after the runtime's answer, so the apology's REST call is its child.
    try {
      await answerFailure(pass, outcome.error, new RunCalls(run, env.rest, true, pass.trace), this.deps);
    } finally {
      observed.end(ending.outcome, outcome.error);
    }
  }

  /** The stages, in the run's OpenTelemetry context when a context manager is registered. */
  private enter(plan: Plan, pass: Pass): Promise<void> {
    const trace = pass.run.get(TRACE) ?? pass.trace;
    if (trace === undefined || !contextManaged()) return runPlan(plan, pass);
    return otelContext.with(trace, () => runPlan(plan, pass));
  }
}
