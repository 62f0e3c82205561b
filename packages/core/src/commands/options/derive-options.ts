import type { LeafOption } from '@boardbot/protocol';
import { InvalidOptionError, MissingMetadataError } from '../../errors.js';
import type { Class } from '../../kernel/metadata.js';
import { DESIGN_TYPE, readMetadataList } from '../../kernel/metadata.js';
import type { LeafOptionType, OptionMetadata } from '../metadata.js';
import { OPTIONS_KEY } from '../metadata.js';
import { type PropertyConstraint, readConstraints } from './constraints.js';
import { DEFAULT_STRING_MAX_LENGTH } from './string-max-length.js';

/** A derived option, with where it came from (for error messages and conversion). */
export interface DerivedOption {
  /** The registered shape. */
  option: LeafOption;
  /** Property of the options class that receives the value. */
  property: string;
  /** `Class.property`, for messages. */
  source: string;
  /** Its place in the class's declaration order: the order of a text invocation's positional arguments. */
  position: number;
  /** Whether a text invocation gives it the rest of the line (`@Option({ rest: true })`). */
  rest: boolean;
}

/**
 * Derives the registered options of an options class from its `@Option` properties and their
 * class-validator constraints. Required options come first (CONTRACT: required before optional),
 * otherwise declaration order is kept.
 *
 * @param cls - the options class
 */
export function deriveOptions(cls: Class): DerivedOption[] {
  const metas = new Map<string, OptionMetadata>();
  for (const m of readMetadataList<OptionMetadata>(OPTIONS_KEY, cls)) metas.set(m.property, m);
  const constraints = readConstraints(cls);
  const defaults = instantiate(cls);
  const declared = [...metas.values()];
  const derived = declared.map((meta, position): DerivedOption => {
    const source = `${cls.name}.${meta.property}`;
    const list = constraints.get(meta.property) ?? [];
    const find = (name: string) => list.find((c) => c.name === name);
    const fallback = defaults[meta.property];
    const type =
      meta.type ?? inferType(source, Reflect.getMetadata(DESIGN_TYPE, cls.prototype, meta.property), list, fallback);
    const option: LeafOption = { name: meta.name, description: meta.description, type };
    if (find('isOptional') === undefined && fallback === undefined) option.required = true;
    Object.assign(option, bounds(type, list));
    const isIn = find('isIn')?.args[0];
    const choices =
      meta.choices ?? (Array.isArray(isIn) ? isIn.map((v) => ({ name: String(v), value: v })) : undefined);
    if (choices) option.choices = choices;
    else if (type === 'string') defaultMaxLength(option, source);
    if (meta.rest && (type !== 'string' || position !== declared.length - 1)) {
      throw new InvalidOptionError(
        `${source} has @Option({ rest: true }), which only the last option of the class, a string, may have: ` +
          'move it last, or drop rest.',
      );
    }
    return { option, property: meta.property, source, position, rest: meta.rest === true };
  });
  return [...derived.filter((d) => d.option.required), ...derived.filter((d) => !d.option.required)];
}

/**
 * Every string option without choices has a maximum length: {@link DEFAULT_STRING_MAX_LENGTH} when its
 * class gives none (one with choices takes nothing longer than its longest choice).
 */
function defaultMaxLength(option: LeafOption, source: string): void {
  if (option.max_length !== undefined) return;
  if ((option.min_length ?? 0) > DEFAULT_STRING_MAX_LENGTH) {
    throw new InvalidOptionError(
      `${source} has a minimum length of ${option.min_length}, above the default maximum of ` +
        `${DEFAULT_STRING_MAX_LENGTH} characters: give it a @MaxLength of its own.`,
    );
  }
  option.max_length = DEFAULT_STRING_MAX_LENGTH;
}

function instantiate(cls: Class): Record<string, unknown> {
  try {
    return new cls() as Record<string, unknown>;
  } catch (cause) {
    throw new InvalidOptionError(`Options class ${cls.name} must be constructible without arguments: ${String(cause)}`);
  }
}

const VALIDATOR_TYPES: Record<string, LeafOptionType> = {
  isNumber: 'number',
  isString: 'string',
  isBoolean: 'boolean',
};
const DESIGN_TYPES = new Map<unknown, LeafOptionType>([
  [Number, 'number'],
  [String, 'string'],
  [Boolean, 'boolean'],
]);

function inferType(source: string, design: unknown, list: PropertyConstraint[], fallback: unknown): LeafOptionType {
  if (design === undefined) {
    // esbuild/tsx emit no design:type at all; guessing would hide the broken build from the author.
    throw new MissingMetadataError(source, `give @Option({ type: 'integer' }) (or another type) explicitly`);
  }
  if (list.some((c) => c.name === 'isInt')) return 'integer';
  const fromDesign = DESIGN_TYPES.get(design);
  if (fromDesign) return fromDesign;
  // `sides = 6` without an annotation is emitted as Object: the validators or the default decide.
  for (const c of list) {
    const t = VALIDATOR_TYPES[c.name];
    if (t) return t;
  }
  if (typeof fallback === 'number' || typeof fallback === 'string' || typeof fallback === 'boolean') {
    return typeof fallback as LeafOptionType;
  }
  const declared = typeof design === 'function' ? design.name : String(design);
  throw new InvalidOptionError(
    `Cannot infer the option type of ${source} (declared as ${declared}): give @Option({ type: 'string' }) or ` +
      "another type ('integer', 'number', 'boolean', 'user', 'board') explicitly.",
  );
}

type Bounds = Pick<LeafOption, 'min_value' | 'max_value' | 'min_length' | 'max_length'>;

/** min/max value for numbers, min/max length for strings; the tightest constraint wins. */
function bounds(type: LeafOptionType, list: PropertyConstraint[]): Bounds {
  const lows: number[] = [];
  const highs: number[] = [];
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const push = (into: number[], v: unknown) => {
    const n = num(v);
    if (n !== undefined) into.push(n);
  };
  const numeric = type === 'integer' || type === 'number';
  for (const c of list) {
    if (numeric) {
      if (c.name === 'min') push(lows, c.args[0]);
      if (c.name === 'max') push(highs, c.args[0]);
      // Only integers can say "positive" as an inclusive bound.
      if (c.name === 'isPositive' && type === 'integer') lows.push(1);
      if (c.name === 'isNegative' && type === 'integer') highs.push(-1);
    } else if (type === 'string') {
      if (c.name === 'isLength') {
        push(lows, c.args[0]);
        push(highs, c.args[1]);
      }
      if (c.name === 'minLength') push(lows, c.args[0]);
      if (c.name === 'maxLength') push(highs, c.args[0]);
      if (c.name === 'isNotEmpty') lows.push(1);
    }
  }
  const out: Bounds = {};
  const low = lows.length > 0 ? Math.max(...lows) : undefined;
  const high = highs.length > 0 ? Math.min(...highs) : undefined;
  if (numeric) {
    if (low !== undefined) out.min_value = low;
    if (high !== undefined) out.max_value = high;
  } else if (type === 'string') {
    if (low !== undefined && low > 0) out.min_length = low;
    if (high !== undefined) out.max_length = high;
  }
  return out;
}
