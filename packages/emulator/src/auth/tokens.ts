import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 of a token, hex: the only form in which the emulator stores a credential. */
export function hashToken(token: string): string {
  // One-shot `hash` (Node ≥ 20.12): no Hash object per call, on a path every request takes.
  return hash('sha256', token, 'hex');
}

/**
 * A new random token: base64url of `bytes` random bytes (CONTRACT: interaction tokens are at least
 * 32 random bytes, 43 characters).
 *
 * @param bytes - Random bytes in the token. @defaultValue 32
 */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * A constant-time test of a secret that does not change (the admin key): its digest is computed
 * once, here, so each check hashes only what was given. Comparing digests keeps the secret's length
 * from leaking too.
 *
 * @param secret - The secret to recognise.
 * @returns A function telling whether `given` is the secret.
 */
export function secretMatcher(secret: string): (given: string) => boolean {
  const expected = hash('sha256', secret, 'buffer');
  return (given) => timingSafeEqual(hash('sha256', given, 'buffer'), expected);
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}
