import type { Command, ErrorDetail, OptionValue } from '@boardbot/emulator/control';
import type { CommandOption, LeafOption } from '@boardbot/protocol';

// The command form checks what the person typed against the command's registered options before
// sending, with the same rules the emulator applies (docs/control-api.md "Slash commands"), so most
// mistakes are explained beside the field without a round trip. The emulator stays the judge: its
// `validation_failed` details are mapped back onto the same fields.

/** What the person typed, by option name (`''` for an empty field). */
export type RawOptionValues = Readonly<Record<string, string>>;

/** The outcome of {@link checkOptions}. */
export interface CheckedOptions {
  /** The typed values to send, for the fields that were filled in. */
  values: Record<string, OptionValue>;
  /** A message per bad field, by option name; empty when everything can be sent. */
  errors: Record<string, string>;
}

/** Field name under which a problem with the chosen subcommand is shown. */
export const SUBCOMMAND_FIELD = '$subcommand';

/** The subcommands of `command` (empty when it has none). */
export function subcommandsOf(command: Command): CommandOption[] {
  return command.options.filter((o) => o.type === 'subcommand');
}

/** The options to fill in for `command`, or for its subcommand `subcommand` when it has subcommands. */
export function leafOptionsOf(command: Command, subcommand: string | undefined): LeafOption[] {
  const subs = subcommandsOf(command);
  if (subs.length === 0) return command.options as LeafOption[];
  return subs.find((s) => s.name === subcommand)?.options ?? [];
}

/** A short hint of an option's bounds, e.g. `2 to 1000` or `up to 20 characters`; `undefined` if none. */
export function boundsHint(option: LeafOption): string | undefined {
  const range = (min: number | undefined, max: number | undefined, unit: string) => {
    if (min !== undefined && max !== undefined) return `${min} to ${max}${unit}`;
    if (min !== undefined) return `at least ${min}${unit}`;
    if (max !== undefined) return `up to ${max}${unit}`;
    return undefined;
  };
  if (option.type === 'integer' || option.type === 'number') return range(option.min_value, option.max_value, '');
  if (option.type === 'string') return range(option.min_length, option.max_length, ' characters');
  return undefined;
}

function checkNumber(option: LeafOption, value: number): string | undefined {
  const { min_value: min, max_value: max } = option;
  if (min !== undefined && max !== undefined && (value < min || value > max)) return `Must be ${min} to ${max}.`;
  if (min !== undefined && value < min) return `Must be at least ${min}.`;
  if (max !== undefined && value > max) return `Must be at most ${max}.`;
  return undefined;
}

function checkOne(option: LeafOption, text: string): { value: OptionValue } | { error: string } {
  if (option.choices && option.choices.length > 0) {
    const choice = option.choices.find((c) => String(c.value) === text);
    return choice ? { value: choice.value } : { error: 'Choose one of the listed values.' };
  }
  switch (option.type) {
    case 'integer': {
      if (!/^[+-]?\d+$/.test(text)) return { error: 'Enter a whole number.' };
      const n = Number(text);
      if (!Number.isSafeInteger(n)) return { error: 'This number is too large.' };
      const problem = checkNumber(option, n);
      return problem ? { error: problem } : { value: n };
    }
    case 'number': {
      const n = Number(text);
      if (!Number.isFinite(n)) return { error: 'Enter a number.' };
      const problem = checkNumber(option, n);
      return problem ? { error: problem } : { value: n };
    }
    case 'boolean':
      if (text === 'true' || text === 'false') return { value: text === 'true' };
      return { error: 'Choose yes or no.' };
    case 'string': {
      const { min_length: min, max_length: max } = option;
      if (min !== undefined && text.length < min) return { error: `Enter at least ${min} characters.` };
      if (max !== undefined && text.length > max) return { error: `Enter at most ${max} characters.` };
      return { value: text };
    }
    default:
      // `user` and `board` come from a picker of ids; the emulator checks that the id exists.
      return { value: text };
  }
}

/**
 * Checks the typed values of a command form against the registered options and converts them to
 * their types (`"20"` → `20` for an integer): required options, types, choices and bounds.
 *
 * @param options - the options of the command (or of its chosen subcommand).
 * @param raw - what was typed, by option name.
 */
export function checkOptions(options: readonly LeafOption[], raw: RawOptionValues): CheckedOptions {
  const values: Record<string, OptionValue> = {};
  const errors: Record<string, string> = {};
  for (const option of options) {
    // Strings keep their spaces (they are the person's text); other types ignore stray ones.
    const typed = raw[option.name] ?? '';
    const text = option.type === 'string' ? typed : typed.trim();
    if (text === '') {
      if (option.required === true) errors[option.name] = 'Required.';
      continue;
    }
    const result = checkOne(option, text);
    if ('error' in result) errors[option.name] = result.error;
    else values[option.name] = result.value;
  }
  return { values, errors };
}

/**
 * Places the emulator's `validation_failed` details: `/options/<name>` beside its field,
 * `/subcommand` beside the subcommand picker, anything else above the form.
 *
 * @param details - the error envelope's `details`.
 * @param fields - the names of the fields on the form.
 */
export function placeServerErrors(
  details: readonly ErrorDetail[],
  fields: readonly string[],
): { fields: Record<string, string>; form: string[] } {
  const placed: Record<string, string> = {};
  const form: string[] = [];
  for (const d of details) {
    const option = /^\/options\/([^/]+)/.exec(d.path)?.[1];
    const field = option !== undefined ? decodePointer(option) : d.path === '/subcommand' ? SUBCOMMAND_FIELD : '';
    if (field !== '' && (fields.includes(field) || field === SUBCOMMAND_FIELD)) {
      placed[field] = placed[field] ? `${placed[field]} ${d.message}` : d.message;
    } else {
      form.push(d.path === '/' || d.path === '' ? d.message : `${d.path}: ${d.message}`);
    }
  }
  return { fields: placed, form };
}

// JSON pointer escapes (RFC 6901): `~1` is `/`, `~0` is `~`.
function decodePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
