import type { CommandDefinition } from '@boardbot/protocol';
import { assertValidCommands } from '../commands/validate-commands.js';
import type { Class } from '../kernel/metadata.js';
import { DEFAULT_TEXT_COMMAND_OPTIONS } from '../text-commands/options.js';
import { coreKinds } from './core-features.js';
import { exploreHandler, methodsOf } from './explorer.js';

/**
 * Derives the command set the handlers declare, in handler order, exactly as `PUT /app/commands`
 * would receive it. Throws `BOARDBOT_INVALID_COMMANDS` naming the class and property of every
 * problem when the set breaks the platform's rules, so a bad set never reaches the platform.
 *
 * @param handlers - the handler classes (those without `@Command` are skipped)
 */
export function deriveCommands(handlers: readonly Class[]): CommandDefinition[] {
  // Every core kind reads each class, so a class that declares no handler at all is refused, as by createBot.
  const { commands, all } = coreKinds({ exhaustedInteraction: 'error', textCommands: DEFAULT_TEXT_COMMAND_OPTIONS });
  const described = handlers.flatMap((h) => methodsOf(exploreHandler(h, all), commands)[0]?.command ?? []);
  assertValidCommands(described);
  return described.map((c) => c.definition);
}
