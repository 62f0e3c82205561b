import { CONTROL_PREFIX } from '@boardbot/protocol';
import { EmulatorExposedDefaultsError, EmulatorOptionsError } from '../errors.js';
import { isLoopbackAddress } from '../http/host-check.js';
import { DEFAULT_DEV_TOKEN } from '../options.js';
import type { Platform } from '../platform/platform.js';
import type { AppRow } from '../store/apps.js';
import { tokenWeakness } from './token-strength.js';
import { hashToken } from './tokens.js';

/** Shortest admin key an emulator listening beyond loopback accepts. */
export const MIN_EXPOSED_SECRET_LENGTH = 16;

/** How many of the apps whose token is not strong a refusal names. */
const NAMED_APPS = 5;

/** The credentials {@link checkExposure} judges. */
export interface ExposedCredentials {
  adminKey: string;
  /** The token the seed gave `dev-bot`; undefined when nothing was seeded at this start. */
  devToken: string | undefined;
  /** To find the apps whose token is the default one, weak, or of unknown strength. */
  platform: Platform;
}

const HOW_TO_SET =
  "set real ones: `boardbot emulator` and `boardbot dev` read BOARDBOT_TOKEN and BOARDBOT_ADMIN_KEY from the environment or the project's .env (createEmulator: the devToken and adminKey options), for example from `openssl rand -base64 24`; or listen on 127.0.0.1";

const HOW_TO_ROTATE =
  `Rotate each one's token: start the emulator on 127.0.0.1 with the same database, then POST ${CONTROL_PREFIX}/apps/<app id>/token ` +
  'with the admin key (ControlClient.rotateToken) answers a generated token to give that bot as its BOARDBOT_TOKEN; ' +
  'an app whose current token is strong keeps it when that token is sent as {"token": ...}, and dev-bot gets it back ' +
  'from a start with the seed and a strong BOARDBOT_TOKEN. Or listen on 127.0.0.1';

function describeApp(app: AppRow): string {
  const what =
    app.token_strength === 'weak' ? 'a weak token' : 'a token of unknown strength (stored before it was judged)';
  return `app "${app.name}" (${app.id}) has ${what}`;
}

/** Names the apps whose token is not strong, a few of them, and how many more. */
function describeApps(apps: readonly AppRow[]): string {
  const named = apps.slice(0, NAMED_APPS).map(describeApp).join('; ');
  const more = apps.length - NAMED_APPS;
  return more > 0 ? `${named}; and ${more} more (GET ${CONTROL_PREFIX}/apps shows each one's token_strength)` : named;
}

/**
 * Refuses, before binding, to listen beyond loopback with a credential anyone can guess: an emulator
 * reachable from other machines is only as safe as its admin key and its app tokens, and `dev-token`
 * is printed in every guide. Every app's token must be strong: judged so when it was made (chosen
 * ones by length and estimated entropy), since only its hash is stored; an app stored before
 * strengths were recorded counts as weak until its token is rotated. On loopback everything is
 * accepted (the `Host` check keeps pages out). No message quotes a token.
 *
 * @param host - the listen address
 * @param credentials - the admin key, the seeded token and the platform to look the apps up in
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
  const devWeakness = devToken === undefined ? undefined : tokenWeakness(devToken);
  if (devWeakness !== undefined) {
    throw new EmulatorExposedDefaultsError(
      `The dev-bot token is weak (${devWeakness}), and an emulator listening on ${host} (beyond loopback) serves only strong tokens: ${HOW_TO_SET}`,
    );
  }
  const unsafe = platform.store.apps.all().filter((app) => app.token_strength !== 'strong');
  if (unsafe.length > 0) {
    throw new EmulatorExposedDefaultsError(
      `An emulator listening on ${host} (beyond loopback) serves only apps whose token is strong, and ${describeApps(unsafe)}. ${HOW_TO_ROTATE}`,
    );
  }
}
