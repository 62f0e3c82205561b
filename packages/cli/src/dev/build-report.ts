import type { BuildResult } from './watch-compiler.js';

/**
 * What `boardbot dev` prints of each build: its errors and one `Build failed` line, once. TypeScript's
 * watch builds again on every change of a file, and one save is often two changes (an editor, or
 * `sed -i`, writes a new file and renames it over the old one): a failed build whose errors are
 * those already printed, with no good build in between, prints nothing.
 */
export class BuildReport {
  private pending: string[] = [];
  private lastFailure: string | undefined;

  /**
   * Keeps a diagnostic of the build under way, formatted for people.
   * @param text - the diagnostic
   */
  diagnostic(text: string): void {
    this.pending.push(text);
  }

  /**
   * The lines to print for the build that just ended.
   * @param result - how it ended
   * @param runs - what the bot runs: the code just saved (a fast emit restarted it), the last good
   *   build, or nothing yet
   */
  ended(result: BuildResult, runs: 'saved' | 'last-good' | 'none'): string[] {
    const diagnostics = this.pending;
    this.pending = [];
    if (result.errors === 0) {
      this.lastFailure = undefined;
      return diagnostics;
    }
    const failure = diagnostics.join('\n');
    if (failure === this.lastFailure) return [];
    this.lastFailure = failure;
    const errors = `${result.errors} error${result.errors === 1 ? '' : 's'}`;
    if (runs === 'saved') {
      return [
        ...diagnostics,
        `Type check found ${errors}: the bot runs the saved code anyway (types do not hold a reload back).`,
      ];
    }
    const then =
      runs === 'last-good' ? 'the bot keeps running the last good build.' : 'the bot starts after the next good build.';
    return [...diagnostics, `Build failed with ${errors}: ${then}`];
  }
}
