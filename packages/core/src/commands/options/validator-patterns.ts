import { InvalidOptionError } from '../../errors.js';
import { getMetadataStorage } from '../../kernel/class-validator.js';
import type { Class } from '../../kernel/metadata.js';
import type { DeclaredPattern } from '../../listeners/patterns/verdict.js';
import { slowRegexAllowed } from './allow-slow-regex.js';

/** class-validator's name for `@Matches` (its `MATCHES`). */
const MATCHES = 'matches';

/**
 * The `@Matches` patterns of an options or answer class (inherited ones included, `each` and
 * group-restricted ones too), each with its `Class.property`, except on properties marked
 * `@AllowSlowRegex()`: the expressions a person's text reaches through the class's validation, which
 * the start-time check judges. A pattern given as text is compiled as class-validator compiles it
 * (`new RegExp(pattern, modifiers)`).
 *
 * @param cls - an options class, or a conversation's answer class
 * @throws InvalidOptionError for a text pattern that is no regular expression (its validation would throw)
 */
export function validatorPatterns(cls: Class): DeclaredPattern[] {
  const allowed = slowRegexAllowed(cls);
  const metas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  return metas.flatMap((m): DeclaredPattern[] => {
    if (m.name !== MATCHES || allowed.has(m.propertyName)) return [];
    const where = `${cls.name}.${m.propertyName}`;
    const [pattern, modifiers] = Array.isArray(m.constraints) ? m.constraints : [];
    if (pattern instanceof RegExp) return [{ regex: pattern, where }];
    try {
      return [{ regex: new RegExp(String(pattern), typeof modifiers === 'string' ? modifiers : undefined), where }];
    } catch (error) {
      throw new InvalidOptionError(
        `${where}: @Matches(${JSON.stringify(pattern)}) is no regular expression: ${(error as Error).message}`,
      );
    }
  });
}
