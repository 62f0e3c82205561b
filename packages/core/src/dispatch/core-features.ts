import { STREAM_ENDINGS } from '../answers/stream-endings.js';
import { COMMAND_STAGES } from '../commands/command-stages.js';
import type { ExhaustedInteraction } from '../commands/context.js';
import { type CommandMethod, commandKind, commandTable } from '../commands/handle-interaction.js';
import { TEXT_COMMANDS } from '../editable/answer-link.js';
import { AnswerDeletions } from '../editable/delete-answers.js';
import { BURST_CANCELLED } from '../listeners/bursts/cancelled.js';
import { EVENT_KIND, EVENT_STAGES } from '../listeners/handle-event.js';
import { MESSAGE_KIND } from '../listeners/handle-message.js';
import { MESSAGE_STAGES } from '../listeners/message-stages.js';
import type { MessageListenerMetadata } from '../listeners/metadata.js';
import { ALREADY_APPLIED } from '../policies/already-applied.js';
import type { CooldownStore } from '../policies/cooldown-store.js';
import type { KindDefinition } from '../policies/kind.js';
import type { Middleware } from '../policies/middleware.js';
import { cooldownStage, GUARDS, middlewareStage } from '../policies/policy-stages.js';
import type { ScheduleDescription } from '../schedules/describe-schedules.js';
import { SCHEDULE_KIND, TICK_STAGES } from '../schedules/handle-tick.js';
import { textCommandKind } from '../text-commands/handle-text.js';
import { type ResolvedTextCommandOptions, textEditable } from '../text-commands/options.js';
import { textCommandTable } from '../text-commands/text-table.js';
import type { Feature } from './dispatcher.js';

/** Core's kinds of handler, made for one bot's options. */
export interface CoreKinds {
  commands: KindDefinition<CommandMethod>;
  messages: KindDefinition<MessageListenerMetadata>;
  schedules: KindDefinition<ScheduleDescription>;
  /** Every one, in the order events reach them. */
  all: readonly KindDefinition[];
}

/**
 * The deletion of editable answers with their message, a kind with no decorator of its own: the
 * answers of the text commands (when an editable one says so: they share one link, and one
 * `deleteWithMessage`, the bot's) and of each editable listener that does.
 */
function answerDeletionKind(commands: KindDefinition<CommandMethod>, text: ResolvedTextCommandOptions): KindDefinition {
  return {
    name: 'answers deleted with their message',
    decorators: [],
    describe: () => [],
    create: (host) => {
      const owners: string[] = [];
      const table = textCommandTable(
        commandTable({ handlers: host.handlersOf(commands) }),
        text.all,
        textEditable(text),
      );
      if ([...table.values()].some((entry) => entry.editable?.deleteWithMessage)) owners.push(TEXT_COMMANDS);
      for (const { target, meta } of host.handlersOf(MESSAGE_KIND)) {
        if (meta.event === 'message.create' && meta.editable?.deleteWithMessage) owners.push(target.label);
      }
      return new AnswerDeletions(host.env, owners);
    },
  };
}

/**
 * Core's kinds for a bot, in the order an event reaches them: commands, text commands, message
 * listeners, the deletion of editable answers with their message, event listeners; and schedules.
 * @param options - what a sixth answer to an interaction does, and the text command options
 */
export function coreKinds(options: {
  exhaustedInteraction: ExhaustedInteraction;
  textCommands: ResolvedTextCommandOptions;
}): CoreKinds {
  const commands = commandKind(options.exhaustedInteraction);
  const text = textCommandKind(commands, options.textCommands);
  const deletions = answerDeletionKind(commands, options.textCommands);
  return {
    commands,
    messages: MESSAGE_KIND,
    schedules: SCHEDULE_KIND,
    all: [commands, text, MESSAGE_KIND, deletions, EVENT_KIND, SCHEDULE_KIND],
  };
}

/**
 * Core's features, given to the runner as a plugin's are: the policies' stages (guards, cooldown,
 * middleware) and the kinds' own (their arguments, what a returned value does), and the endings of
 * a replay that met an earlier run's writes, a burst's cancelled run and a stream that stopped for
 * the bot's sake.
 * @param kinds - core's kinds
 * @param policy - where cooldowns are counted, and the bot's middleware (the array `use()` adds to)
 */
export function coreFeatures(
  kinds: CoreKinds,
  policy: { cooldowns: CooldownStore; middleware: readonly Middleware[] },
): Feature[] {
  return [
    {
      name: 'boardbot:policies',
      stages: [GUARDS, cooldownStage(policy.cooldowns), middlewareStage(policy.middleware)],
      endings: [ALREADY_APPLIED],
    },
    {
      name: 'boardbot:kinds',
      kinds: kinds.all,
      stages: [...EVENT_STAGES, ...COMMAND_STAGES, ...MESSAGE_STAGES, ...TICK_STAGES],
    },
    { name: 'boardbot:bursts', endings: [BURST_CANCELLED] },
    { name: 'boardbot:streams', endings: STREAM_ENDINGS },
  ];
}
