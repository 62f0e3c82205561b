import type { OptionValue } from '@boardbot/protocol';
import { checkInvocationOptions, type ErrorDetail } from '@boardbot/protocol/runtime';
import type { RawOptions } from '../commands/command-stages.js';
import type { DerivedOption } from '../commands/options/derive-options.js';
import type { BotRest, RequestOptions } from '../kernel/ports.js';
import { resolveNames } from './resolve-names.js';

/** `Required option is missing` → `sides is required`; `Expected at most 6` → `sides: expected at most 6`. */
function problemOf(issue: ErrorDetail): string {
  const name = issue.path.replace(/^\/options\//, '');
  if (issue.message === 'Required option is missing') return `${name} is required`;
  return `${name}: ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`;
}

/**
 * Checks option values given outside an interaction (a text invocation's, a model's tool call's) as
 * the platform checks a slash invocation's: `user` and `board` names resolved to ids, then types,
 * bounds, choices and required options, with the same code the emulator runs.
 *
 * @param given - the values, by option name
 * @param options - the command's derived options
 * @param where - the board of the invocation, the REST client and the run's request options
 * @returns the converted values, or each problem as a line for the person
 */
export async function checkGivenValues(
  given: Readonly<Record<string, OptionValue>>,
  options: readonly DerivedOption[],
  where: { boardId: string; rest: BotRest; requestOptions: RequestOptions },
): Promise<RawOptions> {
  const resolved = await resolveNames(given, options, where);
  if (resolved.problems.length > 0) return { ok: false, problems: resolved.problems };
  const declared = options.map((d) => d.option);
  const checked = checkInvocationOptions(declared, resolved.values, {
    exists: (_type, id) => resolved.known.has(id),
  });
  if (checked.issues.length > 0) return { ok: false, problems: checked.issues.map(problemOf) };
  return { ok: true, values: checked.values };
}
