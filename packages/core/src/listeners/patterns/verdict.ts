/** The checker's finding about one pattern, as it is cached. */
export interface PatternVerdict {
  status: 'safe' | 'vulnerable' | 'unknown';
  /** For `vulnerable`: `exponential`, or `polynomial (degree n)`. */
  complexity?: string;
  /** For `vulnerable`: the attack string's shape, as an expression (`'a' + 'a'.repeat(31) + '\x00'`). */
  attack?: string;
  /** For `unknown`: why (`timeout`, `invalid: unknown flag`, ...). */
  reason?: string;
}

/** A pattern to check: its source and flags, and the key of its verdict. */
export interface PatternToCheck {
  hash: string;
  source: string;
  flags: string;
}

/**
 * A regular expression that a stranger's text reaches, and where it is declared: a listener's
 * (`Class.method`) or a validator's (`Class.property`, `@Matches` of an options or answer class).
 */
export interface DeclaredPattern {
  regex: RegExp;
  /** `Class.method` or `Class.property`, for the refusal. */
  where: string;
}
