import { InvalidOptionError } from '../../errors.js';
import { appendMetadata, metadataKey, readMetadataList } from '../../kernel/metadata.js';

/** `@AllowSlowRegex()` properties of an options or answer class: their names. */
export const ALLOW_SLOW_REGEX_KEY = metadataKey('allow-slow-regex');

/**
 * Accepts the `@Matches` patterns of this property as they are: the start-time check, which refuses a
 * pattern that can backtrack catastrophically (`BOARDBOT_UNSAFE_REGEX`), skips them. A person's text
 * can then stall the whole bot for as long as the pattern takes on the longest value the option
 * accepts: give the property a small `@MaxLength` (every string option has one, 1000 by default).
 * The validator counterpart of a listener's `{ allowSlowRegex: true }`.
 *
 * @example
 * @Option({ description: 'A colour name' })
 * @Matches(/^(\w+\s?)+$/)
 * @MaxLength(40)
 * @AllowSlowRegex()
 * colour!: string;
 */
export function AllowSlowRegex(): PropertyDecorator {
  return (target, property) => {
    if (typeof property !== 'string')
      throw new InvalidOptionError('@AllowSlowRegex needs a property with a string name');
    appendMetadata(ALLOW_SLOW_REGEX_KEY, property, target.constructor);
  };
}

/** The properties of `cls` (inherited ones included) whose patterns the author accepted with `@AllowSlowRegex()`. */
export function slowRegexAllowed(cls: Function): ReadonlySet<string> {
  return new Set(readMetadataList<string>(ALLOW_SLOW_REGEX_KEY, cls));
}
