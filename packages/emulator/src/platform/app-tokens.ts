import { tokenWeakness } from '../auth/token-strength.js';
import { hashToken, randomToken } from '../auth/tokens.js';
import type { TokenStrength } from '../control/schemas/responses.js';
import { validationFailed } from '../errors.js';
import type { Platform } from './platform.js';

/** A token about to be given to an app: the token (shown once), its SHA-256 and its judged strength. */
export interface IssuedToken {
  token: string;
  hash: string;
  strength: TokenStrength;
}

/**
 * The token to give an app, judged now because only its hash is stored: `chosen` as is (so a bot's
 * `.env` keeps working), strong or weak by its length and estimated entropy, or else a generated
 * one, strong. Refuses (`400 validation_failed` at `/token`, never quoting the token) one another
 * app holds, and a weak one while the emulator listens beyond loopback.
 *
 * @param p - the platform
 * @param chosen - the token given by the caller, if any
 * @param appId - the app it is for, which may hold it already (given again, its strength is judged)
 */
export function issueToken(p: Platform, chosen: string | undefined, appId?: string): IssuedToken {
  const token = chosen ?? randomToken();
  const hash = hashToken(token);
  const holder = p.store.apps.byTokenHash(hash);
  if (holder && holder.id !== appId) {
    throw validationFailed([{ path: '/token', message: 'Another app already has this token' }]);
  }
  const weakness = chosen === undefined ? undefined : tokenWeakness(chosen);
  if (weakness !== undefined && p.exposedOn !== undefined) {
    throw validationFailed([
      {
        path: '/token',
        message: `This emulator listens on ${p.exposedOn}, beyond loopback, where a chosen token must be strong, and ${weakness}: leave token out to get a generated one`,
      },
    ]);
  }
  return { token, hash, strength: weakness === undefined ? 'strong' : 'weak' };
}
