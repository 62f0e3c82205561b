import { STREAM_ENDINGS } from '../answers/stream-endings.js';
import { COMMAND_STAGES } from '../commands/command-stages.js';
import type { ExhaustedInteraction } from '../commands/context.js';
import { type CommandMethod, commandKind, commandTable } from '../commands/handle-interaction.js';
import { TEXT_COMMANDS } from '../editable/answer-link.js';
import { AnswerDeletions } from '../editable/delete-answers.js';
import { BURST_CANCELLED } from '../listeners/bursts/bursts.js';
import { EVENT_KIND, EVENT_STAGES } from '../listeners/handle-event.js';
import { MESSAGE_KIND } from '../listeners/handle-message.js';
import { MESSAGE_STAGES } from '../listeners/message-stages.js';
import type { Plugin } from '../plugins/plugin.js';
import type { CooldownStore } from '../policies/cooldown-store.js';
import { ALREADY_APPLIED } from '../policies/endings.js';
import type { KindDefinition } from '../policies/kind.js';
import type { Middleware } from '../policies/middleware.js';
import { cooldownStage, GUARDS, middlewareStage } from '../policies/policy-stages.js';
import { SCHEDULE_KIND, TICK_STAGES } from '../schedules/handle-tick.js';
import { textCommandKind } from '../text-commands/handle-text.js';
import { type ResolvedTextCommandOptions, textEditable } from '../text-commands/options.js';
import { textCommandTable } from '../text-commands/text-table.js';

/** What core's features are made for: the bot's options and parts they read. */
export interface CoreFeatureOptions {
  exhaustedInteraction: ExhaustedInteraction;
  textCommands: ResolvedTextCommandOptions;
  /** Where cooldowns are counted. */
  cooldowns: CooldownStore;
  /** The bot's middleware: the array `use()` adds to. */
  middleware: readonly Middleware[];
}

/**
 * The deletion of editable answers with their message, a kind with no decorator of its own: the
 * text commands' answers (when an editable one says so) and each editable listener's that does.
 */
function answerDeletionKind(commands: KindDefinition<CommandMethod>, text: ResolvedTextCommandOptions): KindDefinition {
  return {
    name: 'answers deleted with their message',
    decorators: [],
    describe: () => [],
    create: (host) => {
      const owners: string[] = [];
      const table = textCommandTable(commandTable(host.handlersOf(commands)), text.all, textEditable(text));
      if ([...table.values()].some((entry) => entry.editable?.deleteWithMessage)) owners.push(TEXT_COMMANDS);
      for (const { target, meta } of host.handlersOf(MESSAGE_KIND)) {
        if (meta.event === 'message.create' && meta.editable?.deleteWithMessage) owners.push(target.label);
      }
      return new AnswerDeletions(host.env, owners);
    },
  };
}

/**
 * Core's kinds, in the order an event reaches them: commands, text commands, message listeners, the
 * deletion of editable answers, event listeners; and schedules.
 * @param options - what a sixth answer to an interaction does, and the text command options
 * @returns them all, and the command kind (the command set is read from its handlers)
 */
export function coreKinds(options: Pick<CoreFeatureOptions, 'exhaustedInteraction' | 'textCommands'>) {
  const commands = commandKind(options.exhaustedInteraction);
  const text = textCommandKind(commands, options.textCommands);
  const deletions = answerDeletionKind(commands, options.textCommands);
  return { commands, all: [commands, text, MESSAGE_KIND, deletions, EVENT_KIND, SCHEDULE_KIND] };
}

/**
 * Core's features, given to the runner as a plugin's are: its kinds, their stages (their arguments,
 * what a returned value does), the policies' stages (guards, cooldown, middleware), and the endings
 * of a replay that met an earlier run's writes, of a burst's cancelled run and of a stream that
 * stopped for the bot's sake.
 * @param options - the bot's options and parts they read
 * @param core - core's kinds, when the bot's definition explored its handlers with them already
 * @returns the features, and the command kind
 */
export function coreFeatures(
  options: CoreFeatureOptions,
  core: ReturnType<typeof coreKinds> = coreKinds(options),
): {
  features: Plugin[];
  commands: KindDefinition<CommandMethod>;
} {
  const { commands, all: kinds } = core;
  const policies = [GUARDS, cooldownStage(options.cooldowns), middlewareStage(options.middleware)];
  const stages = [...policies, ...EVENT_STAGES, ...COMMAND_STAGES, ...MESSAGE_STAGES, ...TICK_STAGES];
  const endings = [ALREADY_APPLIED, BURST_CANCELLED, ...STREAM_ENDINGS];
  return { features: [{ name: 'boardbot', kinds, stages, endings }], commands };
}
