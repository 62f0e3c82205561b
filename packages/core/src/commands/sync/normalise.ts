import type { Command, CommandDefinition, CommandOption } from '@boardbot/protocol';

/** A command reduced to what decides equality: no ids or times, defaults removed, keys sorted. */
export type NormalisedCommand = CommandDefinition;

/**
 * Normalises a declared or registered command for comparison: drops `id`/`updated_at`, treats
 * `required: false` and empty `options` as absent (the platform's defaults), drops undefined keys
 * and sorts object keys. Option order is kept: it is what people see, and required options must
 * come first. Unknown option keys are kept (the platform stores them verbatim).
 *
 * @param command - a declared `CommandDefinition` or a registered `Command`
 */
export function normaliseCommand(command: CommandDefinition | Command): NormalisedCommand {
  const out: NormalisedCommand = { name: command.name, description: command.description };
  const options = (command.options ?? []).map(normaliseOption);
  if (options.length > 0) out.options = options;
  return out;
}

function normaliseOption(option: CommandOption): CommandOption {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(option).sort()) {
    const value = (option as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (key === 'required' && value === false) continue;
    if (key === 'options') {
      const nested = (value as CommandOption[]).map(normaliseOption);
      if (nested.length > 0) out.options = nested;
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
