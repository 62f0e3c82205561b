import { createHash } from 'node:crypto';
import type { CommandDefinition } from '@boardbot/protocol';
import { normaliseCommand } from './normalise.js';

/**
 * A short, stable hash of a command set, equal for sets that `planCommandSync` finds equal (order,
 * defaults and the order of options and choices do not matter). Replicas compare it to tell the
 * versions of a rolling deploy apart.
 *
 * @param commands - the declared commands
 */
export function commandSetHash(commands: readonly CommandDefinition[]): string {
  const normalised = commands.map(normaliseCommand).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(normalised)).digest('hex').slice(0, 16);
}
