import { UUID_PATTERN } from './limits.js';
import type { ErrorDetail } from './schemas/error-envelope.js';
import type { CommandOption, LeafOption, OptionValue } from './schemas/records.js';

// CONTRACT ("Emulator control API"): an invocation is checked against the registered options
// (types, required, choices, bounds) before any bot sees it. The emulator checks a slash invocation
// with this; a bot checks a text invocation (`!roll 20`) with the same code, so both ways refuse the
// same values.

/** What the check asks of whoever knows the users and boards (the emulator's store, a bot's lookups). */
export interface InvocationDirectory {
  /** Whether `id` names an existing user (`type: 'user'`) or board (`type: 'board'`). */
  exists(type: 'user' | 'board', id: string): boolean;
}

/** The outcome of {@link checkInvocationOptions}: the converted values, or the problems. */
export interface CheckedInvocationOptions {
  /** The given values, converted (`"20"` → `20` for a numeric option, `"true"` → `true`). */
  values: Record<string, OptionValue>;
  /** One entry per problem, `path` `/options/<name>`; empty when the invocation fits. */
  issues: ErrorDetail[];
}

const uuid = new RegExp(UUID_PATTERN);
const DECIMAL_INTEGER = /^-?\d+$/;
const DECIMAL_NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * The number a typed value (a form field, a text command's argument) means for an `integer` or
 * `number` option: decimal digits, an optional minus and, for a `number`, a decimal point; white space
 * around it is ignored. Anything else means no number: `0x10`, `1e2`, `0b101`, `Infinity`, `''`
 * (`Number()` reads each of those as one).
 *
 * @param text - the value as typed
 * @param type - the option's type
 * @returns the number, or undefined
 */
export function decimalValue(text: string, type: 'integer' | 'number'): number | undefined {
  const trimmed = text.trim();
  if (!(type === 'integer' ? DECIMAL_INTEGER : DECIMAL_NUMBER).test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Converts one given value to its option's type and checks bounds and choices.
 * @returns the converted value, or the problem
 */
export function checkOptionValue(
  option: LeafOption | CommandOption,
  raw: OptionValue,
  directory: InvocationDirectory,
  path = `/options/${option.name}`,
): OptionValue | ErrorDetail {
  const bad = (message: string): ErrorDetail => ({ path, message });
  let value: OptionValue = raw;
  switch (option.type) {
    case 'integer':
    case 'number': {
      // Values typed in a form (or a chat line) arrive as strings: "20" becomes 20, "0x10" nothing.
      if (typeof raw === 'string') value = decimalValue(raw, option.type) ?? raw;
      if (typeof value !== 'number' || !Number.isFinite(value))
        return bad(option.type === 'integer' ? 'Expected an integer' : 'Expected a number');
      if (option.type === 'integer' && !Number.isInteger(value)) return bad('Expected an integer');
      if (option.min_value !== undefined && value < option.min_value)
        return bad(`Expected at least ${option.min_value}`);
      if (option.max_value !== undefined && value > option.max_value)
        return bad(`Expected at most ${option.max_value}`);
      break;
    }
    case 'boolean':
      if (raw === 'true' || raw === 'false') value = raw === 'true';
      if (typeof value !== 'boolean') return bad('Expected a boolean');
      break;
    case 'string':
      if (typeof value !== 'string') return bad('Expected a string');
      if (option.min_length !== undefined && value.length < option.min_length)
        return bad(`Expected at least ${option.min_length} characters`);
      if (option.max_length !== undefined && value.length > option.max_length)
        return bad(`Expected at most ${option.max_length} characters`);
      break;
    case 'user':
    case 'board':
      if (typeof value !== 'string' || !uuid.test(value) || !directory.exists(option.type, value))
        return bad(`Expected a ${option.type} id`);
      break;
    default:
      return bad(`Options of type ${option.type} take no value`);
  }
  if (option.choices && !option.choices.some((c) => c.value === value)) {
    return bad(`Expected one of ${option.choices.map((c) => JSON.stringify(c.value)).join(', ')}`);
  }
  return value;
}

/**
 * Checks the option values of one invocation against the registered options of its level (the
 * command's, or its subcommand's): no unknown name, every required one given, each value of its
 * type, within its bounds and among its choices.
 *
 * @param declared - the registered options of the level
 * @param given - the values, by option name
 * @param directory - tells which user and board ids exist
 */
export function checkInvocationOptions(
  declared: readonly (LeafOption | CommandOption)[],
  given: Readonly<Record<string, OptionValue>>,
  directory: InvocationDirectory,
): CheckedInvocationOptions {
  const issues: ErrorDetail[] = [];
  const values: Record<string, OptionValue> = {};
  const byName = new Map(declared.map((o) => [o.name, o]));
  for (const name of Object.keys(given)) {
    if (!byName.has(name)) issues.push({ path: `/options/${name}`, message: 'Unknown option' });
  }
  for (const o of declared) {
    // Own properties only: an option named `constructor` left out is not Object.prototype's.
    const raw = Object.hasOwn(given, o.name) ? given[o.name] : undefined;
    if (raw === undefined) {
      if (o.required === true) issues.push({ path: `/options/${o.name}`, message: 'Required option is missing' });
      continue;
    }
    const v = checkOptionValue(o, raw, directory);
    if (typeof v === 'object') issues.push(v);
    else values[o.name] = v;
  }
  return { values, issues };
}
