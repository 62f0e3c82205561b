import type { OptionValue } from '@boardbot/protocol';
import { decimalValue } from '@boardbot/protocol/runtime';
import type { ValidationError } from 'class-validator';
import { classTransformer } from '../../kernel/class-transformer.js';
import { validate } from '../../kernel/class-validator.js';
import type { Class } from '../../kernel/metadata.js';
import type { DerivedOption } from './derive-options.js';

/** The outcome of converting and validating one invocation's options. */
export type ParsedOptions =
  | { ok: true; value: object; unknown: string[] }
  | { ok: false; problems: string[]; unknown: string[] };

const TYPE_WORDS = {
  integer: 'an integer',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  user: 'a user id',
  board: 'a board id',
} as const;

/**
 * Converts the raw option values of an invocation into an instance of the options class
 * (class-transformer) and validates it (class-validator). Each problem is one line that names the
 * option and says what is expected, ready to show to the person.
 *
 * @param cls - the options class (undefined: the command takes no options)
 * @param derived - its derived options
 * @param raw - `interaction.command.options`
 */
export async function parseOptions(
  cls: Class | undefined,
  derived: readonly DerivedOption[],
  raw: Readonly<Record<string, OptionValue>>,
): Promise<ParsedOptions> {
  const known = new Set(derived.map((d) => d.option.name));
  const unknown = Object.keys(raw).filter((k) => !known.has(k));
  if (!cls) return { ok: true, value: {}, unknown };
  const problems: string[] = [];
  const plain: Record<string, unknown> = {};
  const names = new Map<string, string>();
  for (const d of derived) {
    const { name, type, required } = d.option;
    names.set(d.property, name);
    // Own properties only: an option named `constructor` left out is not Object.prototype's.
    const value = coerce(type, Object.hasOwn(raw, name) ? raw[name] : undefined);
    if (value === undefined) {
      if (required) problems.push(`${name} is required`);
      continue;
    }
    // The platform checks types against the registered set; this guards against a drifted set.
    if (!fits(type, value)) {
      problems.push(`${name} must be ${TYPE_WORDS[type as keyof typeof TYPE_WORDS] ?? type}`);
      continue;
    }
    // The bound comes before any validator: their work grows with the text (see DEFAULT_STRING_MAX_LENGTH).
    const max = d.option.max_length;
    if (typeof value === 'string' && max !== undefined && value.length > max) {
      problems.push(`${name} must be shorter than or equal to ${max} characters`);
      continue;
    }
    plain[d.property] = value;
  }
  if (problems.length > 0) return { ok: false, problems, unknown };
  const { plainToInstance } = classTransformer();
  const instance = plainToInstance(cls, plain) as object;
  // An options class without any validator is fine: its values were checked against the schema above.
  const errors = await validate(instance, {
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
  });
  if (errors.length === 0) return { ok: true, value: instance, unknown };
  return { ok: false, problems: errors.flatMap((e) => describe(e, names)), unknown };
}

function coerce(type: string, value: OptionValue | undefined): OptionValue | undefined {
  // Values typed into a form may arrive as text; the emulator converts them, a tolerant bot does too
  // (decimal digits only, as the platform's check reads them).
  if (typeof value !== 'string') return value;
  if (type === 'integer' || type === 'number') return decimalValue(value, type) ?? value;
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function fits(type: string, value: OptionValue): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return typeof value === 'string';
  }
}

/** class-validator messages start with the property name; people know the option name. */
function describe(error: ValidationError, names: ReadonlyMap<string, string>): string[] {
  const name = names.get(error.property) ?? error.property;
  return Object.values(error.constraints ?? {}).map((m) =>
    m.startsWith(`${error.property} `) ? `${name}${m.slice(error.property.length)}` : `${name}: ${m}`,
  );
}
