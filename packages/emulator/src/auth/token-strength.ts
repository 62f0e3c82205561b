// How a chosen app token is judged when it is made (the strengths themselves, `TokenStrength`, are
// part of the control API's records: control/schemas/responses.ts).

/**
 * What a chosen token needs to count as strong. The estimate is the token's length times the
 * Shannon entropy of its own characters (how evenly it uses them). Random tokens clear it with room to
 * spare (medians of a million draws: `openssl rand -hex 16` 116 bits, never below 88; `openssl rand
 * -base64 24` 146, never below 120; a UUID 134, never below 106); `dev-token` estimates at 26 and
 * 24 × `a` at 0. It catches short and repetitive tokens; it cannot tell a phrase a person made up from
 * a random one, which is why a generated token is best.
 */
export const TOKEN_STRENGTH_RULE = {
  /** Fewest characters. */
  minLength: 16,
  /** Fewest estimated bits. */
  minBits: 80,
} as const;

/**
 * The token's estimated entropy in bits: its length times the Shannon entropy of its character
 * frequencies, so a repeated or short token scores low whatever alphabet it is written in.
 *
 * @param token - the token to estimate (never logged)
 */
export function estimatedBits(token: string): number {
  const counts = new Map<string, number>();
  for (const c of token) counts.set(c, (counts.get(c) ?? 0) + 1);
  const length = [...token].length;
  let bitsPerChar = 0;
  for (const n of counts.values()) bitsPerChar -= (n / length) * Math.log2(n / length);
  return bitsPerChar * length;
}

/**
 * Why a chosen token is weak (its length, or its estimated bits, against {@link TOKEN_STRENGTH_RULE}),
 * or undefined when it is strong. The reason never quotes the token.
 *
 * @param token - the chosen token
 */
export function tokenWeakness(token: string): string | undefined {
  const length = [...token].length;
  if (length < TOKEN_STRENGTH_RULE.minLength) {
    return `it has ${length} characters, and a token needs at least ${TOKEN_STRENGTH_RULE.minLength}`;
  }
  const bits = Math.floor(estimatedBits(token));
  if (bits < TOKEN_STRENGTH_RULE.minBits) {
    return `its characters carry an estimated ${bits} bits (too short or too repetitive), and a token needs at least ${TOKEN_STRENGTH_RULE.minBits}`;
  }
  return undefined;
}
