import type { Command, CommandDefinition, CommandOption } from '@boardbot/protocol';

/**
 * Normalises a declared or registered command for comparison: drops `id`/`updated_at`, treats
 * `required: false` and empty `options` as absent (the platform's defaults), drops undefined keys,
 * sorts object keys, and sorts options by name and choices by value: a mere reordering is not a
 * change worth a `PUT` (a restart after moving a property must not rewrite the set). Unknown option
 * keys are kept (the platform stores them verbatim).
 *
 * @param command - a declared `CommandDefinition` or a registered `Command`
 * @returns the command reduced to what decides equality, as a `CommandDefinition`
 */
export function normaliseCommand(command: CommandDefinition | Command): CommandDefinition {
  const out: CommandDefinition = { name: command.name, description: command.description };
  const options = byName((command.options ?? []).map(normaliseOption));
  if (options.length > 0) out.options = options;
  return out;
}

function byName<T extends { name: string }>(list: T[]): T[] {
  return list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Choices in a stable order: by value, numbers before strings. */
function sortedChoices(choices: readonly { name: string; value: unknown }[]): unknown[] {
  const key = (c: { value: unknown }) => `${typeof c.value}:${String(c.value)}`;
  return [...choices].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)).map(canonical);
}

function normaliseOption(option: CommandOption): CommandOption {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(option).sort()) {
    const value = (option as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (key === 'required' && value === false) continue;
    if (key === 'options') {
      const nested = byName((value as CommandOption[]).map(normaliseOption));
      if (nested.length > 0) out.options = nested;
      continue;
    }
    if (key === 'choices' && Array.isArray(value)) {
      out.choices = sortedChoices(value as { name: string; value: unknown }[]);
      continue;
    }
    out[key] = canonical(value);
  }
  return out as CommandOption;
}

/** Sorts object keys recursively so that two equal values serialise equally. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .filter((k) => o[k] !== undefined)
        .map((k) => [k, canonical(o[k])]),
    );
  }
  return value;
}

/** Whether two normalised values are equal. */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
