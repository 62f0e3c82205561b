import { ContextBase, type ContextDeps } from '../kernel/base-context.js';
import type { TranslateValues } from '../kernel/context.js';
import { englishText, TRANSLATOR } from '../kernel/translate.js';
import type { MessageContext } from '../listeners/context.js';
import { MessageContextImpl } from '../listeners/message-context.js';
import type { TurnAsker } from './approval-store.js';
import { shareTurn } from './asking-turns.js';

/**
 * The asking message's context, in a run that is not its own (the run of the reply or command that
 * approved the turn): the same message, author, board and locale as when it was asked, its writes
 * through the deciding run (its keys, its signal).
 */
class AskerContextImpl extends MessageContextImpl {
  /**
   * @param deps - the deciding run's
   * @param asker - whom the turn acts for
   */
  constructor(
    deps: ContextDeps,
    private readonly asker: TurnAsker,
  ) {
    super(deps, 'message.create', asker.message, asker.profile, null);
  }

  override get locale(): string {
    return this.asker.locale;
  }

  override t(key: string, values?: TranslateValues): string {
    const translator = this.services.find(TRANSLATOR);
    return translator ? translator.t(this.asker.locale, key, values) : englishText(key, values);
  }
}

/**
 * What a turn keeps of the person it acts for, from the context that asked.
 * @param ctx - the asking message's context
 */
export function askerOf(ctx: MessageContext): TurnAsker {
  return { message: ctx.message, profile: ctx.author, locale: ctx.locale };
}

/**
 * The context a resumed turn builds its tools on: the asking person's, so `commandTools` run their
 * commands as that person (their guards, roles and cooldowns) and `boardTools` open their boards,
 * whoever approved; its writes go through the deciding run.
 * @param deciding - the context of the reply or command that decided the approval
 * @param asker - whom the turn acts for
 */
export function askerContext(deciding: object, asker: TurnAsker): MessageContext {
  const { deps } = ContextBase.internals(deciding as ContextBase);
  const ctx = new AskerContextImpl(deps, asker);
  shareTurn(deciding, ctx);
  return ctx;
}
