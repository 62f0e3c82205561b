import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveOptional } from './load-optional.js';
import type { PatternVerdict } from './verdict.js';

/** The checker's name and version: part of each verdict's key (a new checker decides again). */
export function checkerVersion(): string {
  // Resolved, not loaded: only a pattern without a cached verdict starts the checker.
  const { version } = JSON.parse(readFileSync(resolveOptional('recheck/package.json'), 'utf8')) as { version: string };
  return `recheck@${version}`;
}

/**
 * The checker's verdicts on disk, one file per pattern under `<stateDir>/regex-checks/`, named by the
 * hash of the checker's version, the pattern and its flags: a bot whose patterns were all checked
 * before starts without the checker. The state directory is private to the bot (a verdict planted
 * by someone else would let a vulnerable pattern through).
 */
export class VerdictCache {
  private readonly dir: string;

  /** @param stateDir - the bot's state directory */
  constructor(stateDir: string) {
    this.dir = join(stateDir, 'regex-checks');
  }

  /**
   * The key of a pattern's verdict.
   * @param checker - the checker and its version (a new checker decides again)
   */
  static key(checker: string, source: string, flags: string): string {
    return createHash('sha256').update(`${checker}\n${flags}\n${source}`).digest('hex');
  }

  /**
   * The cached verdict, or undefined (none, unreadable, or no decision: it is checked again). Only a
   * decided verdict counts: an `unknown` one (a timeout, a crash, a flag the checker did not know),
   * which earlier versions cached, is no verdict at all.
   */
  async get(hash: string): Promise<PatternVerdict | undefined> {
    try {
      const parsed = JSON.parse(await readFile(this.file(hash), 'utf8')) as PatternVerdict;
      return decided(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  /** Stores a decided verdict (written whole, then renamed: a reader never sees half a file); ignores any other. */
  async set(hash: string, verdict: PatternVerdict): Promise<void> {
    if (!decided(verdict)) return;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const temp = join(this.dir, `.${hash}.${randomUUID()}.tmp`);
    await writeFile(temp, `${JSON.stringify(verdict)}\n`, { mode: 0o600 });
    await rename(temp, this.file(hash));
  }

  private file(hash: string): string {
    return join(this.dir, `${hash}.json`);
  }
}

/** Whether the checker decided: `safe` or `vulnerable`. A timeout or a crash is not a verdict. */
export function decided(verdict: PatternVerdict | undefined): verdict is PatternVerdict {
  return verdict?.status === 'safe' || verdict?.status === 'vulnerable';
}
