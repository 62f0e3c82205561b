/** A system tool the tests need, and the Debian packages that provide it. */
export interface TestTool {
  name: string;
  packages: string[];
}

/** The tools, each with the Debian package that provides it. */
export const TEST_TOOLS: TestTool[];

/** The path of `command` on the PATH, the way a shell finds it; `undefined` when it is not there. */
export function locateTool(command: string): string | undefined;

/**
 * Where the browser tests' Chromium is (`CHROMIUM_PATH` if it runs, else `chromium` on the PATH if it
 * runs), or the clause that says why there is none (a wrong `CHROMIUM_PATH`, Ubuntu's snap stand-in).
 */
export function findChromium(): { path?: string; problem?: string };

/** The Chromium the browser tests launch: `CHROMIUM_PATH`, else `chromium` on the PATH, if it runs. */
export function chromiumPath(): string | undefined;

/** Where a test tool (e.g. `redis-server`) is on this machine, or `undefined`. */
export function toolPath(name: string): string | undefined;

/** Finds every test tool, installing missing ones with apt-get where it can; the line to print when some are still missing. */
export function ensureTestTools(options?: { install?: boolean }): string | undefined;
