import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import lockfile from 'proper-lockfile';
import { defaultStateDir } from '../kernel/state-dir.js';
import type { SessionRecord, SessionStore, SessionValue } from './session-store.js';

/** Version of the file format; a file of another version is treated as no session. */
const FORMAT = 1;

/** How long a lock may go without being refreshed before another process takes it over (its holder died). */
const STALE_LOCK_MS = 10_000;

interface SessionFile extends SessionRecord {
  format: number;
  key: string;
}

/**
 * Sessions in JSON files under `<stateDir>/sessions/`, one per session: the embedded default, shared
 * by every process that runs on the same disk. A write holds the session's lock (`proper-lockfile`:
 * an atomic `mkdir`, refreshed while held, taken over once stale), checks the version, then writes a
 * new file, syncs it and renames it into place, so a reader (which takes no lock) always sees a
 * complete file and a crash never leaves half a session.
 */
export class FileSessionStore implements SessionStore {
  readonly description: string;
  private readonly dir: string;

  /** @param stateDir - the bot's state directory @defaultValue `BOARDBOT_STATE_DIR`, else `.boardbot` */
  constructor(stateDir: string = defaultStateDir()) {
    this.dir = resolve(stateDir, 'sessions');
    this.description = `file ${this.dir}`;
  }

  async read(key: string): Promise<SessionRecord | undefined> {
    let text: string;
    try {
      text = await readFile(this.fileOf(key), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    const file = JSON.parse(text) as SessionFile;
    if (file.format !== FORMAT || file.key !== key) return undefined;
    return { version: file.version, value: file.value };
  }

  async write(key: string, expected: number, value: SessionValue | null): Promise<boolean> {
    await mkdir(this.dir, { recursive: true });
    const file = this.fileOf(key);
    const release = await lockfile.lock(file, {
      realpath: false,
      stale: STALE_LOCK_MS,
      retries: { retries: 200, factor: 1.3, minTimeout: 1, maxTimeout: 50, randomize: true },
    });
    try {
      if (((await this.read(key))?.version ?? 0) !== expected) return false;
      const body: SessionFile = { format: FORMAT, key, version: expected + 1, value };
      const tmp = `${file}.tmp-${process.pid}`;
      const handle = await open(tmp, 'w');
      try {
        await handle.writeFile(`${JSON.stringify(body)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, file);
      return true;
    } finally {
      await release();
    }
  }

  /** The file of a session: its key hashed, so any key is a safe file name. */
  private fileOf(key: string): string {
    return join(this.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.json`);
  }
}
