import { EmulatorExposedDefaultsError, EmulatorOptionsError } from '../errors.js';
import { isLoopbackAddress } from '../http/host-check.js';
import { DEFAULT_DEV_TOKEN } from '../options.js';
import type { Platform } from '../platform/platform.js';
import { hashToken } from './tokens.js';

/** Shortest admin key, and seeded `dev-bot` token, an emulator listening beyond loopback accepts. */
export const MIN_EXPOSED_SECRET_LENGTH = 16;

/** The credentials {@link checkExposure} judges. */
export interface ExposedCredentials {
  adminKey: string;
  /** The token the seed gave `dev-bot`; undefined when nothing was seeded at this start. */
  devToken: string | undefined;
  /** To find an app holding the default token, seeded now or by an earlier start of the same database. */
  platform: Platform;
}

const HOW_TO_SET =
  "set real ones: `boardbot emulator` and `boardbot dev` read BOARDBOT_TOKEN and BOARDBOT_ADMIN_KEY from the environment or the project's .env (createEmulator: the devToken and adminKey options), for example from `openssl rand -base64 24`; or listen on 127.0.0.1";

/**
 * Refuses, before binding, to listen beyond loopback with a credential anyone can guess: an emulator
 * reachable from other machines is only as safe as its admin key and its app tokens, and `dev-token`
 * is printed in every guide. On loopback everything is accepted (the `Host` check keeps pages out).
 *
 * @param host - the listen address
 * @param credentials - the admin key, the seeded token and the platform to look the default token up in
 */
export function checkExposure(host: string, { adminKey, devToken, platform }: ExposedCredentials): void {
  if (isLoopbackAddress(host)) return;
  if (adminKey.length < MIN_EXPOSED_SECRET_LENGTH) {
    throw new EmulatorOptionsError(
      `The admin key has ${adminKey.length} characters, and an emulator listening on ${host} (beyond loopback) needs at least ${MIN_EXPOSED_SECRET_LENGTH}: set a longer adminKey (BOARDBOT_ADMIN_KEY for the CLI), omit it to get a random one, or listen on 127.0.0.1`,
    );
  }
  if (platform.store.apps.byTokenHash(hashToken(DEFAULT_DEV_TOKEN)) !== undefined) {
    throw new EmulatorExposedDefaultsError(
      `An app holds the default token "${DEFAULT_DEV_TOKEN}", and an emulator listening on ${host} (beyond loopback) would let anyone on the network act as it: ${HOW_TO_SET}`,
    );
  }
  if (devToken !== undefined && devToken.length < MIN_EXPOSED_SECRET_LENGTH) {
    throw new EmulatorExposedDefaultsError(
      `The dev-bot token has ${devToken.length} characters, and an emulator listening on ${host} (beyond loopback) needs at least ${MIN_EXPOSED_SECRET_LENGTH}: ${HOW_TO_SET}`,
    );
  }
}
