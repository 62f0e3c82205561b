import { createRequire } from 'node:module';

// `../package.json` is the package's manifest both from `src/` (tests) and from `dist/` (published).
const manifest = createRequire(import.meta.url)('../package.json') as { version: string };

/** The version of `@boardbot/emulator`. */
export const EMULATOR_VERSION: string = manifest.version;
