import { hashToken } from './tokens.js';

/** How many credentials one generation of {@link TokenDigests} remembers. */
export const TOKEN_DIGEST_GENERATION = 8192;

/**
 * The SHA-256 of credentials seen recently, so a bot's app token and the interaction tokens it
 * answers with are hashed once, not on every request. A digest depends only on its token, so an
 * entry is never stale; only tokens that matched a credential (or were just issued) are remembered,
 * in two generations of {@link TOKEN_DIGEST_GENERATION} that turn when the newer one is full, so
 * neither made-up tokens nor a long run can grow it.
 */
export class TokenDigests {
  private current = new Map<string, string>();
  private previous = new Map<string, string>();

  /** The SHA-256 (hex) of `token`, remembered or computed. */
  digestOf(token: string): string {
    return this.current.get(token) ?? this.previous.get(token) ?? hashToken(token);
  }

  /** Remembers the digest of a token known to be a credential. */
  remember(token: string, digest: string): void {
    if (this.current.size >= TOKEN_DIGEST_GENERATION) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(token, digest);
  }

  /** Forgets every token (a reset of the emulator). */
  clear(): void {
    this.current.clear();
    this.previous.clear();
  }
}
