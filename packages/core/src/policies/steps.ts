import type { Logger } from '@boardbot/protocol';
import type { AnyContext, BaseContext, HandlerContext, ReplyBody } from '../kernel/context.js';
import type { GuardFn } from './guards.js';
import type { CooldownMetadata } from './metadata.js';
import type { ErrorHook } from './on-error.js';

// What a kind of handler hands the policy chain (chain.ts): its handlers, and the steps it runs.

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
  guards?: {
    context(ctx: C): HandlerContext;
    denied(ctx: C, result: false | string, target: HandlerTarget): Promise<void>;
  };
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
