import type { ExhaustedInteraction } from '../commands/context.js';
import { InteractionHandler } from '../commands/handle-interaction.js';
import { AnswerDeletions } from '../editable/delete-answers.js';
import type { CoreEnv } from '../kernel/env.js';
import type { BotEvent, EventMeta } from '../kernel/event.js';
import type { BurstWorkers } from '../listeners/bursts/bursts.js';
import { EventHandler } from '../listeners/handle-event.js';
import { MessageHandler } from '../listeners/handle-message.js';
import type { PolicyChain } from '../policies/chain.js';
import { TextCommandHandler } from '../text-commands/handle-text.js';
import { type ResolvedTextCommandOptions, textEditable } from '../text-commands/options.js';
import { textCommandTable } from '../text-commands/text-table.js';
import { deletedWithMessage } from './deleted-with-message.js';
import type { Routes } from './routes.js';

/** What one kind of handler does with the events: the dispatcher hands each event to every kind. */
export interface EventKind {
  /** Whether it has a handler that may run for the event. */
  handles(event: BotEvent): boolean;
  /** Runs its handlers of the event, each through the policy chain; never rejects. */
  handle(event: BotEvent, meta: EventMeta): Promise<void>;
  /** Runs nothing more of what it holds (at stop); optional. */
  close?(): void;
}

/** What a kind of handler is built from: the bot's environment, the policy chain and the routes. */
export interface KindParts {
  env: CoreEnv;
  chain: PolicyChain;
  routes: Routes;
  /** What a sixth answer to an interaction does. */
  exhaustedInteraction: ExhaustedInteraction;
  /** How commands are invoked as text (`createBot({ textCommands })`, defaults applied). */
  textCommands: ResolvedTextCommandOptions;
  /** Where held work (a burst's run) takes a worker, and the metrics that count it. */
  workers: BurstWorkers;
}

/** Builds one kind of handler; a new kind is one more of these in the dispatcher's `kinds`. */
export type KindFactory = (parts: KindParts) => EventKind;

/**
 * The kinds of handler a bot dispatches events to, in the order they start: event listeners,
 * commands, text commands, message listeners, and the deletion of editable answers with their
 * message. (Scheduled ticks are not events: the scheduler runs them.)
 */
export const EVENT_KINDS: readonly KindFactory[] = [
  ({ env, chain, routes }) => new EventHandler(env, chain, routes.events),
  ({ env, chain, routes, exhaustedInteraction }) =>
    new InteractionHandler(env, chain, routes.commands, exhaustedInteraction),
  ({ env, chain, routes, textCommands: text }) =>
    new TextCommandHandler(
      env,
      chain,
      textCommandTable(routes.commands, text.all, textEditable(text)),
      text,
      routes.messages['message.create'].map((target) => target.listener),
    ),
  ({ env, chain, routes, workers }) => new MessageHandler(env, chain, routes.messages, workers),
  ({ env, routes, textCommands: text }) => new AnswerDeletions(env, deletedWithMessage(routes, text)),
];
