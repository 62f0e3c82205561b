import { InvalidHandlerError } from '../errors.js';
import { appendMetadata } from '../kernel/metadata.js';
import type { CommandOptions } from './command.js';
import type { CommandContext } from './context.js';
import type { SubcommandMetadata } from './metadata.js';
import { SUBCOMMANDS_KEY } from './metadata.js';

/** A subcommand handler: the context and the converted, validated options. */
export type SubcommandHandler<O extends object> = (ctx: CommandContext<O>, options: O) => unknown;

/**
 * Declares a method of a `@Command` class as one of its subcommands (one level, as the contract
 * allows). It can be invoked as text when its command can (`!note add milk`).
 *
 * @param options - name, description and options class of the subcommand
 */
export function Subcommand<O extends object = Record<string, unknown>>(
  options: Omit<CommandOptions<O>, 'text' | 'editable'>,
) {
  return <T extends SubcommandHandler<O>>(
    target: object,
    method: string | symbol,
    _d: TypedPropertyDescriptor<T>,
  ): void => {
    if (typeof method !== 'string') throw new InvalidHandlerError('@Subcommand needs a method with a string name');
    const meta: SubcommandMetadata = { name: options.name, description: options.description, method };
    if (options.options) meta.options = options.options;
    appendMetadata(SUBCOMMANDS_KEY, meta, target.constructor);
  };
}
