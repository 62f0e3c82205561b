import type { HandlerContext } from '../kernel/context.js';
import { namedKey } from '../kernel/run.js';
import type { CooldownStore } from './cooldown-store.js';
import { type Middleware, runMiddleware } from './middleware.js';
import type { Stage } from './stages.js';

/** `@UseGuards` and the plugins' guards, in order: the first that denies stops the handler. */
export const GUARDS: Stage = {
  name: 'guards',
  phase: 'guard',
  applies: (target, rules) => rules.guarded === true && target.guards.length > 0,
  async run({ ctx, target, rules }) {
    for (const guard of target.guards) {
      const result = await guard.check(ctx as HandlerContext);
      if (result === true || result === undefined) continue;
      ctx.log.info({ guard: guard.name, handler: target.label }, 'guard denied');
      const words = typeof result === 'string' ? result : undefined;
      await rules.refuse?.(ctx, { handler: target.label, reason: 'denied', words });
      return false;
    }
  },
};

/**
 * `@Cooldown`: takes one use of the handler's window, counted per app and the kind's subject, under the run's
 * use id (the same on every run of the event, so a shared store counts a replay once).
 * @param store - where the windows are counted
 */
export function cooldownStage(store: CooldownStore): Stage {
  return {
    name: 'cooldown',
    phase: 'admit',
    applies: (target, rules) => target.cooldown !== undefined && rules.subject !== undefined,
    async run({ run, ctx, target, rules }) {
      const { cooldown } = target;
      if (!cooldown || !rules.subject) return;
      const { who, board } = rules.subject(ctx);
      const scope = cooldown.per === 'user' ? who : cooldown.per === 'board' ? board : 'app';
      // Keyed by the app too: apps sharing a store (a host's, a database) count their own uses.
      const wait = await store.take(
        `${ctx.app.id}:${target.label}:${cooldown.per}:${scope}`,
        cooldown,
        namedKey(run, 'boardbot.cooldown'),
      );
      if (wait === 0) return;
      ctx.log.info({ handler: target.label, wait_ms: wait }, 'cooldown holds');
      await rules.refuse?.(ctx, { handler: target.label, reason: 'cooling', waitMs: wait });
      return false;
    },
  };
}

/**
 * The bot's middleware (`bot.use`, then the plugins'), around the handler of a guarded kind. It
 * applies while there is some: the bot's runner is restaged when `use()` adds one.
 * @param middleware - the bot's middleware, the very array `use()` adds to
 */
export function middlewareStage(middleware: readonly Middleware[]): Stage {
  return {
    name: 'middleware',
    phase: 'around',
    applies: (_target, rules) => rules.guarded === true && middleware.length > 0,
    run: ({ ctx }, next) => runMiddleware(middleware, ctx as HandlerContext, next),
  };
}
