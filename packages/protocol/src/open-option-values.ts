import { LIMITS } from './limits.js';
import type { ErrorDetail } from './schemas/error-envelope.js';
import type { CommandDefinition } from './schemas/records.js';

// CONTRACT (docs/protocol.md "Limits"): unknown keys of options and choices are stored and returned
// verbatim, so their values are bounded: at most `openOptionValueDepth` levels of nesting, and
// `openOptionBytes` of JSON per command. Without a bound a deeply nested value overflows every
// recursive JSON walker downstream (JSON.stringify included).

const OPTION_KEYS = new Set([
  'name',
  'description',
  'type',
  'required',
  'choices',
  'min_value',
  'max_value',
  'min_length',
  'max_length',
  'options',
]);
const CHOICE_KEYS = new Set(['name', 'value']);

/**
 * Whether `value` nests more than `max` levels of arrays and objects (a scalar nests 0). It walks
 * with its own stack, so a value of any depth is safe to test.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Bytes of `text` in UTF-8 (without allocating an encoded copy). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The unknown keys of `node` with their paths. */
function* openEntries(node: object, known: Set<string>, at: string): Generator<[string, unknown]> {
  for (const [key, value] of Object.entries(node)) if (!known.has(key)) yield [`${at}/${key}`, value];
}

/** Every unknown key of a level of options, their choices and sub-options, with its path. */
function* openValuesOf(options: readonly object[], at: string): Generator<[string, unknown]> {
  for (const [i, option] of options.entries()) {
    const path = `${at}/options/${i}`;
    yield* openEntries(option, OPTION_KEYS, path);
    const { choices, options: subOptions } = option as { choices?: unknown; options?: unknown };
    if (Array.isArray(choices)) {
      for (const [j, choice] of choices.entries()) yield* openEntries(choice, CHOICE_KEYS, `${path}/choices/${j}`);
    }
    if (Array.isArray(subOptions)) yield* openValuesOf(subOptions, path);
  }
}

/** The problems of one command's open option values: too deep, or too many bytes together. */
export function openOptionValueIssues(command: CommandDefinition, at: string): ErrorDetail[] {
  const issues: ErrorDetail[] = [];
  let bytes = 0;
  for (const [path, value] of openValuesOf(command.options ?? [], at)) {
    if (nestsDeeperThan(value, LIMITS.openOptionValueDepth)) {
      issues.push({ path, message: `Expected at most ${LIMITS.openOptionValueDepth} levels of nesting` });
    } else {
      bytes += utf8Length(path) + utf8Length(JSON.stringify(value) ?? '');
    }
  }
  if (bytes > LIMITS.openOptionBytes) {
    issues.push({
      path: `${at}/options`,
      message: `Expected at most ${LIMITS.openOptionBytes} bytes of unknown option keys in one command, got ${bytes}`,
    });
  }
  return issues;
}
