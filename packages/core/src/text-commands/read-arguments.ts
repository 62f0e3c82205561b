import type { RawOptions } from '../commands/command-stages.js';
import type { DerivedOption } from '../commands/options/derive-options.js';
import type { TextToken } from './tokenize.js';

/**
 * Gives each argument of a text invocation to its option (docs/commands-and-options.md, "How a
 * line is read"): `name:value` is named when `name` is one of the command's options, any other
 * argument fills the next option not named yet, in the order of the options class; a string option
 * marked `rest` takes the rest of the line as typed; arguments left over are refused. The values stay
 * text: the platform's check converts them as it converts a slash invocation's.
 *
 * @param tokens - the arguments
 * @param line - the text they were read from (for `rest`)
 * @param options - the command's options
 * @param shownAs - the command as typed (`!roll`), for the refusals
 */
export function readArguments(
  tokens: readonly TextToken[],
  line: string,
  options: readonly DerivedOption[],
  shownAs: string,
): RawOptions {
  const ordered = [...options].sort((a, b) => a.position - b.position);
  const byName = new Map(ordered.map((d) => [d.option.name, d]));
  // No prototype: an option named `constructor` not given yet is undefined here, not Object's.
  const values: Record<string, string> = Object.create(null);
  const problems: string[] = [];
  const extra: TextToken[] = [];
  let next = 0;
  for (const [i, token] of tokens.entries()) {
    const named = token.named && byName.get(token.named.name);
    if (token.named && named) {
      if (values[named.option.name] !== undefined) problems.push(`${named.option.name} is given twice`);
      else values[named.option.name] = token.named.value;
      continue;
    }
    while (next < ordered.length && values[(ordered[next] as DerivedOption).option.name] !== undefined) next++;
    const slot = ordered[next];
    if (!slot) {
      extra.push(token);
      continue;
    }
    if (slot.rest) {
      // One quoted argument is that text; more are the line as typed, spaces and quotes included.
      values[slot.option.name] = i === tokens.length - 1 ? token.value : line.slice(token.start).trim();
      break;
    }
    values[slot.option.name] = token.value;
    next++;
  }
  if (extra.length > 0) problems.push(...leftOver(extra, ordered, shownAs));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, values };
}

/** Why the arguments left over are refused: an unknown `name:`, or more arguments than options. */
function leftOver(extra: readonly TextToken[], ordered: readonly DerivedOption[], shownAs: string): string[] {
  const names = ordered.map((d) => d.option.name);
  const known = names.length > 0 ? `its options are ${names.join(', ')}` : 'it takes no options';
  const problems: string[] = [];
  const plain: string[] = [];
  for (const token of extra) {
    if (token.named) problems.push(`${token.named.name} is not an option of ${shownAs} (${known})`);
    else plain.push(JSON.stringify(token.value));
  }
  if (plain.length > 0) {
    const takes = names.length === 1 ? '1 argument' : `${names.length} arguments`;
    problems.push(`too many arguments: ${plain.join(' ')} (${shownAs} takes ${takes}; quote an argument with spaces)`);
  }
  return problems;
}
