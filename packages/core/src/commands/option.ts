import type { OptionChoice } from '@boardbot/protocol';
import { InvalidOptionError } from '../errors.js';
import { appendMetadata } from '../kernel/metadata.js';
import type { LeafOptionType, OptionMetadata } from './metadata.js';
import { OPTIONS_KEY } from './metadata.js';
import { optionNameOf } from './options/option-name.js';

/** What `@Option` takes. */
export interface OptionOptions {
  /** Shown to people, 1..100 characters. */
  description: string;
  /** Name on the wire. @defaultValue the property name in snake_case (`dueDate` → `due_date`) */
  name?: string;
  /**
   * The option type. @defaultValue inferred: `@IsInt` → `integer`, else `design:type` or the
   * default value (Number → `number`, String → `string`, Boolean → `boolean`). `user` and `board`
   * are always explicit.
   */
  type?: LeafOptionType;
  /** Allowed values, as choices or plain values. @defaultValue the values of `@IsIn`, if any */
  choices?: readonly (OptionChoice | string | number)[];
  /**
   * In a text invocation, this option takes the rest of the line as typed (`!say hello   world`).
   * Only the last option of the class, a string, may. @defaultValue false
   */
  rest?: boolean;
}

/**
 * Declares a property of an options class as a command option. Its class-validator constraints
 * complete the registered schema and validate every invocation.
 *
 * @param options - description, and name/type/choices when inference is not enough
 */
export function Option(options: OptionOptions): PropertyDecorator {
  return (target, property) => {
    if (typeof property !== 'string') throw new InvalidOptionError('@Option needs a property with a string name');
    const meta: OptionMetadata = {
      property,
      name: options.name ?? optionNameOf(property),
      description: options.description,
    };
    if (options.type) meta.type = options.type;
    if (options.rest) meta.rest = true;
    if (options.choices)
      meta.choices = options.choices.map((c) => (typeof c === 'object' ? c : { name: String(c), value: c }));
    appendMetadata(OPTIONS_KEY, meta, target.constructor);
  };
}
