import { API_PREFIX, CONTROL_PREFIX } from '@boardbot/protocol';

/** Where a listening emulator can be reached. */
export interface EmulatorUrls {
  /** The server's origin, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** The app API's base URL (`{url}/api/v1`): what a bot's REST and gateway clients use. */
  apiUrl: string;
  /** The control API's base URL (`{url}/_emulator/v1`). */
  controlUrl: string;
  /** The playground page, carrying the admin key (`{url}/?key=<admin key>`). */
  playgroundUrl: string;
}

/** The URLs of an emulator listening at `origin`. */
export function emulatorUrls(origin: string, adminKey: string): EmulatorUrls {
  return {
    url: origin,
    apiUrl: `${origin}${API_PREFIX}`,
    controlUrl: `${origin}${CONTROL_PREFIX}`,
    playgroundUrl: `${origin}/?key=${encodeURIComponent(adminKey)}`,
  };
}
