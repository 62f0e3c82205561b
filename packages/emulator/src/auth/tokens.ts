import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 of a token, hex: the only form in which the emulator stores a credential. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
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

/** Compares two secrets in constant time (through their hashes, so lengths do not leak either). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(hashToken(a), 'hex'), Buffer.from(hashToken(b), 'hex'));
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}
