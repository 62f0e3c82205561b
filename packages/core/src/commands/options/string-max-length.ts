/**
 * The longest value, in characters, a string option takes when its class gives no `@MaxLength` or
 * `@Length` of its own: registered as its `max_length`, so the platform refuses a longer value, and
 * checked again by the bot (text invocations, conversation answers) before any validator runs. A
 * validator's work grows with the text it reads (class-validator's own come from validator.js, whose
 * patterns have had ReDoS advisories; a `@AllowSlowRegex()` pattern is the author's): the bound
 * bounds it. `@MaxLength(n)` on the property gives another (up to the platform's 6000).
 */
export const DEFAULT_STRING_MAX_LENGTH = 1000;
