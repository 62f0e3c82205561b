import { ContextBase, type RunVoice } from '../kernel/base-context.js';
import type { AnyContext } from '../kernel/context.js';
import { RUNTIME_TEXTS } from '../kernel/translate.js';
import type { ErrorHook } from './on-error.js';
import type { Answerable, Passage } from './stages.js';

/** What the failure path is told by the bot. */
export interface FailurePolicy {
  /** Told to the person when a handler fails; false: nothing is said. */
  errorReply: string | false;
  onError: ErrorHook | undefined;
}

/**
 * Tells the person `text`, as the runtime; logs (does not throw) when that fails.
 * @param ctx - a context that answers
 * @param text - what to say
 */
export async function say(ctx: Answerable, text: string): Promise<void> {
  try {
    await ctx.reply(text);
  } catch (error) {
    ctx.log.warn({ err: error }, 'could not tell the person');
  }
}

/**
 * The failure path of a run: logs the failure, runs the class's `@OnError` hook then the bot's
 * `onError` (one that throws is logged, the next still runs), then tells the person something went
 * wrong, unless a hook already answered, or the error itself did (a streamed answer that stopped
 * ends with a visible marker). The hooks and the apology speak with the runtime's voice, so they go
 * out after the run was abandoned, and keep counting its keys.
 *
 * @param pass - the run that failed
 * @param error - what it threw, or why it was abandoned
 * @param voice - the runtime's voice of the run
 * @param policy - the bot's `errorReply` and `onError`
 */
export async function answerFailure(
  pass: Passage,
  error: unknown,
  voice: RunVoice,
  policy: FailurePolicy,
): Promise<void> {
  const { target, rules } = pass;
  const ctx = ContextBase.spokenBy(pass.ctx, voice);
  ctx.log.error({ err: error, handler: target.label }, 'handler failed');
  const answer = rules.answers ? (ctx as unknown as Answerable) : undefined;
  const before = answer?.answerCount ?? 0;
  const { onError, errorReply } = policy;
  // The bot's onError is called as the plain function it was given (`this` undefined), not as a wrapper's method.
  const global = onError && { label: 'onError', call: (e: unknown, c: AnyContext) => onError(e, c) };
  for (const hook of [target.errorHook, global]) {
    try {
      await hook?.call(error, ctx);
    } catch (hookError) {
      ctx.log.error({ err: hookError, hook: hook?.label }, 'error hook failed');
    }
  }
  const told = (error as { personTold?: unknown } | null)?.personTold === true;
  if (answer && errorReply !== false && !told && answer.answerCount === before) {
    // The default words are the runtime's text, in the person's locale; the bot's own are said as given.
    await say(answer, errorReply === RUNTIME_TEXTS.errorReply ? answer.t('boardbot:errorReply') : errorReply);
  }
}
