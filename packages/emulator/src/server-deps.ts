import type { Logger } from '@boardbot/protocol';
import type { ResolvedEmulatorOptions } from './options.js';
import type { Platform } from './platform/platform.js';
import type { EmulatorUrls } from './urls.js';

/** What the server is built from. */
export interface ServerDeps {
  platform: Platform;
  options: ResolvedEmulatorOptions;
  adminKey: string;
  devToken: string;
  logger: Logger;
  /** True once `close()` began: new requests get `503 unavailable`. */
  isClosing: () => boolean;
  /** The URLs once listening (for the control API's `/info`). */
  urls: () => EmulatorUrls | undefined;
  /** The `Host` names accepted right now; undefined accepts any (see `host-check.ts`). */
  allowedHosts: () => Set<string> | undefined;
}
