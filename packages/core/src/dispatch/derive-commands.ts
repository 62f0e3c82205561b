import type { CommandDefinition } from '@boardbot/protocol';
import { assertValidCommands } from '../commands/validate-commands.js';
import type { Class } from '../kernel/metadata.js';
import { exploreHandler } from './explorer.js';

/**
 * Derives the command set the handlers declare, in handler order, exactly as `PUT /app/commands`
 * would receive it. Throws `BOARDBOT_INVALID_COMMANDS` naming the class and property of every
 * problem when the set breaks the platform's rules, so a bad set never reaches the platform.
 *
 * @param handlers - the handler classes (those without `@Command` are skipped)
 */
export function deriveCommands(handlers: readonly Class[]): CommandDefinition[] {
  const described = handlers.map((h) => exploreHandler(h).command).filter((c) => c !== undefined);
  const definitions = described.map((c) => c.definition);
  assertValidCommands(described);
  return definitions;
}
