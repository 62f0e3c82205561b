import type { Logger } from '@boardbot/protocol';
import type { ContextDeps } from '../kernel/base-context.js';
import type { AnyContext, BaseContext, ReplyBody } from '../kernel/context.js';
import type { EventMeta } from '../kernel/event.js';
import type { HandlerRun } from '../kernel/run.js';
import type { GuardFn } from './guards.js';
import type { CooldownMetadata } from './metadata.js';
import type { ErrorHook } from './on-error.js';

/**
 * The phases of a run, in their one order: the locale (`open`, before anything can speak), the
 * guards, the arguments, the admission (cooldown), the stages `around` the handler (middleware),
 * the handler (`handle`), what its returned value does (`result`), and `finish`.
 */
export const PHASES = ['open', 'guard', 'arguments', 'admit', 'around', 'handle', 'result', 'finish'] as const;

/** One of the {@link PHASES}. */
export type Phase = (typeof PHASES)[number];

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
  /** The runtime's texts in the person's locale. */
  t: BaseContext['t'];
}

/**
 * Why a stage keeps a handler from running: a guard denied it (with its own words, or none), or a
 * cooldown holds it; `handler` is its label (what a refusal to one person is throttled by).
 */
export type Refusal = { handler: string } & (
  | { reason: 'denied'; words: string | undefined }
  | { reason: 'cooling'; waitMs: number }
);

/**
 * How the runs of a kind of handler meet the stages: a kind supplies its context and these rules,
 * and orders nothing. Stages ask them whether they apply and how to tell the person.
 * @typeParam C - the kind's context
 */
export interface KindRules<C extends AnyContext = AnyContext> {
  /** Guards and middleware see the kind's context (one of `GuardedContexts`). @defaultValue false */
  readonly guarded?: boolean;
  /** The context is {@link Answerable}: it hears refusals, the apology, the runtime's texts. @defaultValue false */
  readonly answers?: boolean;
  /** Whom a cooldown per user counts, and the board one per board counts; absent: no cooldown applies. */
  subject?(ctx: C): { who: string; board: string };
  /** Tells the person why the handler does not run; absent: nobody is told. */
  refuse?(ctx: C, refusal: Refusal): Promise<void>;
}

/** A run going through the stages: what they read, and the arguments and result they set. */
export interface Passage<C extends AnyContext = AnyContext> {
  readonly run: HandlerRun;
  readonly ctx: C;
  readonly target: HandlerTarget;
  readonly rules: KindRules<C>;
  /** What the kind hands its runs besides the context (an event's payload, a command's option reader). */
  readonly input: unknown;
  /** The handler's arguments, set by the `arguments` stages (none: it is called without). */
  args: readonly unknown[];
  /** What the handler returned, for the `result` stages. */
  result: unknown;
}

/** What a stage's `run` returns: `false` (or a promise of it) stops the run there. */
// biome-ignore lint/suspicious/noConfusingVoidType: a stage that goes on returns nothing.
export type StageResult = void | boolean | Promise<void | boolean>;

/**
 * One step of every run it applies to, at one phase, given by a feature or a plugin
 * (`definePlugin({ stages })`). The runner runs each phase's stages in the order they were given.
 */
export interface Stage {
  /** What it is, for logs and docs. */
  readonly name: string;
  readonly phase: Phase;
  /** Whether it runs for a handler of a kind: asked once per handler. @defaultValue every run */
  applies?(target: HandlerTarget, rules: KindRules): boolean;
  /**
   * Runs it. `false` stops the run (having told the person what they should hear). An `around` stage
   * goes on by calling `next()`; the other phases get a `next` that does nothing.
   */
  run(pass: Passage, next: () => Promise<void>): StageResult;
}

/** What a kind asks the runner to run: one handler for one event, with its rules, context and input. */
export interface RunRequest<C extends AnyContext = AnyContext> {
  rules: KindRules<C>;
  target: HandlerTarget;
  /** The event (or tick) the run belongs to. */
  event: EventMeta;
  /** The run's logger: the event's, with the kind's fields. */
  log: Logger;
  /** Follows the run into its REST calls (`X-Request-Id`). */
  correlationId: string;
  /** Builds the kind's context of the run. */
  context(deps: ContextDeps): C;
  /** What the stages read besides the context. */
  input?: unknown;
}

/** What kinds run their handlers through: the bot's runner. */
export interface Runs {
  /**
   * Runs one handler for one event through the stages, supervised; never rejects. Resolves when the
   * run ended, or handed its slot back (a streamed answer).
   */
  run<C extends AnyContext>(request: RunRequest<C>): Promise<void>;
  /**
   * Tells the person the runtime's text `key`, in their locale, as the runtime's answer for an event
   * no handler runs for (an unknown command); logs (does not throw) when that fails.
   * @param request - the run's label (`/command`), event, logger, rules and context
   * @param key - the text's key (`boardbot:unknownCommand`)
   * @param values - what it is filled with
   */
  speak<C extends AnyContext>(
    request: Omit<RunRequest<C>, 'target'> & { label: string },
    key: string,
    values: Record<string, unknown>,
  ): Promise<void>;
  /**
   * Whether a refusal to `who` about `what` may be posted on the board now: at most one per person
   * and command in the bot's `refusalIntervalMs`, for every kind; one held back is logged.
   * @param who - the person (a user id, or a webhook's name)
   * @param what - the command as typed, a listener's label, or what else was refused
   * @param log - the run's logger
   */
  mayRefuse(who: string, what: string, log: Logger): boolean;
}
