import { BODY_CHECKERS, commandSetIssues, type ErrorDetail } from '@boardbot/protocol/runtime';
import { InvalidCommandsError } from '../errors.js';
import type { CommandDescription } from './describe.js';

/**
 * Checks derived commands against the schema and the contract's set rules (`commandSetIssues`).
 *
 * @param described - commands as the explorer described them
 */
export function assertValidCommands(described: readonly CommandDescription[]): void {
  const definitions = described.map((c) => c.definition);
  const schema = BODY_CHECKERS.ReplaceCommandsBody.check(definitions);
  const issues: ErrorDetail[] = [...(schema.ok ? [] : schema.issues), ...commandSetIssues(definitions)];
  if (issues.length === 0) return;
  throw new InvalidCommandsError(issues.map((i) => `${locate(i.path, described)}: ${i.message} (at ${i.path})`));
}

/** Turns a path such as `/0/options/2/max_value` into `/roll option RollOptions.sides`. */
function locate(path: string, described: readonly CommandDescription[]): string {
  const [cmd, k1, opt, k2, sub] = path.split('/').slice(1);
  const command = described[Number(cmd)];
  if (!command) return 'the command set';
  let where = `/${command.definition.name}`;
  if (k1 === 'options' && opt !== undefined && /^\d+$/.test(opt)) {
    where += ` (${command.optionSources[Number(opt)] ?? `option ${opt}`})`;
    if (k2 === 'options' && sub !== undefined && /^\d+$/.test(sub)) {
      where += ` (${command.subOptionSources[Number(opt)]?.[Number(sub)] ?? `option ${sub}`})`;
    }
  }
  return where;
}
