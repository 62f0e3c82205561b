import type { CommandDefinition, Logger } from '@boardbot/protocol';
import { CommandsDriftError } from '../../errors.js';
import type { BotRest, RequestOptions } from '../../kernel/ports.js';
import { formatPlan } from './format-plan.js';
import { type CommandSyncPlan, planCommandSync } from './plan.js';

/**
 * How `start()` treats the registered commands: `sync` writes the declared set when it differs;
 * `check` fails the start on any difference (for production, where CI syncs); `off` leaves them.
 */
export type CommandSyncMode = 'sync' | 'check' | 'off';

/**
 * Reconciles the registered commands with the declared ones: reads them, plans, logs the plan, and
 * writes the whole declared set (one `PUT`) only when something differs.
 *
 * @param rest - the REST client
 * @param declared - the declared commands
 * @param mode - see {@link CommandSyncMode}
 * @param log - where the plan is logged
 * @param options - correlation id for the calls
 * @returns the plan, or undefined when `mode` is `off`
 */
export async function syncCommands(
  rest: Pick<BotRest, 'listCommands' | 'replaceCommands'>,
  declared: CommandDefinition[],
  mode: CommandSyncMode,
  log: Logger,
  options: RequestOptions = {},
): Promise<CommandSyncPlan | undefined> {
  if (mode === 'off') {
    log.info('command sync is off: registered commands left as they are');
    return undefined;
  }
  const plan = planCommandSync(declared, await rest.listCommands(options));
  const summary = {
    added: plan.added.map((c) => c.name),
    changed: plan.changed.map((c) => c.name),
    removed: plan.removed.map((c) => c.name),
    unchanged: plan.unchanged.length,
  };
  if (plan.inSync) {
    log.info(summary, 'commands in sync: nothing to write');
    return plan;
  }
  if (mode === 'check') throw new CommandsDriftError(formatPlan(plan));
  log.info({ ...summary, plan: formatPlan(plan) }, 'registering commands');
  await rest.replaceCommands(declared, options);
  return plan;
}
