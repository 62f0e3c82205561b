/** The checker's finding about one pattern, as it is cached. */
export interface PatternVerdict {
  status: 'safe' | 'vulnerable' | 'unknown';
  /** For `vulnerable`: `exponential`, or `polynomial (degree n)`. */
  complexity?: string;
  /** For `vulnerable`: the attack string's shape, as an expression (`'a' + 'a'.repeat(31) + '\x00'`). */
  attack?: string;
  /** For `unknown`: why (`timeout`, `unsupported: ...`). */
  reason?: string;
}

/** A pattern to check: its source and flags, and the key of its verdict. */
export interface PatternToCheck {
  hash: string;
  source: string;
  flags: string;
}
