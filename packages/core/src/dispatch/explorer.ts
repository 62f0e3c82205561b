import { InvalidHandlerError } from '../errors.js';
import type { Class } from '../kernel/metadata.js';
import type { KindDefinition, KindMethod } from '../policies/kind.js';
import { describePolicies, type PolicyDescription } from '../policies/read-policies.js';

/** Everything the runtime needs to know about one handler class: its methods of each kind, its policies. */
export interface HandlerDescription extends PolicyDescription {
  cls: Class;
  /** The methods each kind read from the class (only the kinds that found some). */
  kinds: ReadonlyMap<KindDefinition, readonly KindMethod[]>;
}

/** `@A, @B or @C`. */
function listed(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? 'handler decorator') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/**
 * Reads the decorators of a handler class into a {@link HandlerDescription}: each kind reads its
 * own. Throws when the class cannot work, or declares no handler of any kind.
 *
 * @param cls - a class given in `createBot({ handlers })`
 * @param kinds - the bot's kinds of handler (core's and its plugins')
 */
export function exploreHandler(cls: Class, kinds: readonly KindDefinition[]): HandlerDescription {
  const found = new Map<KindDefinition, readonly KindMethod[]>();
  for (const kind of kinds) {
    const methods = kind.describe(cls);
    if (methods.length > 0) found.set(kind, methods);
  }
  if (found.size === 0) {
    throw new InvalidHandlerError(
      `${cls.name} is listed in handlers but has no ${listed(kinds.flatMap((k) => k.decorators))}: add one, or move it to providers.`,
    );
  }
  return { cls, kinds: found, ...describePolicies(cls) };
}

/**
 * The methods one kind read from a described class.
 * @param description - the class, described
 * @param kind - the kind
 */
export function methodsOf<M extends KindMethod>(
  description: HandlerDescription,
  kind: KindDefinition<M>,
): readonly M[] {
  return (description.kinds.get(kind as KindDefinition) ?? []) as readonly M[];
}
