import type { LeafOption } from '@boardbot/protocol';
import type { DerivedOption } from '../commands/options/derive-options.js';

/** A JSON Schema (draft 7) object, as the AI SDK's `jsonSchema()` takes a tool's input. */
export type OptionsJsonSchema = {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties: false;
};

/** One registered option as a JSON Schema property: its type, bounds, choices and description. */
function propertyOf(option: LeafOption): Record<string, unknown> {
  // A person is named as in a text invocation: id, username or display name (resolved as `!cmd` does).
  const what =
    option.type === 'user'
      ? ' (a user id, username or display name)'
      : option.type === 'board'
        ? ' (a board id or name)'
        : '';
  const named = option.type === 'user' || option.type === 'board';
  const schema: Record<string, unknown> = { type: named ? 'string' : option.type };
  schema.description = `${option.description}${what}`;
  if (option.choices) schema.enum = option.choices.map((c) => c.value);
  if (option.min_value !== undefined) schema.minimum = option.min_value;
  if (option.max_value !== undefined) schema.maximum = option.max_value;
  if (option.min_length !== undefined) schema.minLength = option.min_length;
  if (option.max_length !== undefined) schema.maxLength = option.max_length;
  return schema;
}

/**
 * The input schema of a command run as a model's tool: its registered options (derived from the
 * options class by `deriveOptions`, as the command set registers them), one property each, named and
 * bounded as registered. It only describes them to the model: the values are checked as a text
 * invocation's are (the platform's checks, then the options class's validation), so a bad value
 * is the tool's error, told as the person would be told.
 *
 * @param options - the command's derived options
 */
export function optionsJsonSchema(options: readonly DerivedOption[]): OptionsJsonSchema {
  const properties: OptionsJsonSchema['properties'] = {};
  const required: string[] = [];
  for (const { option } of options) {
    properties[option.name] = propertyOf(option);
    if (option.required) required.push(option.name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}
