import { createHash } from 'node:crypto';
import { readFile, rename } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Logger } from '@boardbot/protocol';
import { defaultStateDir, ensurePrivateDir, syncDir } from '../../kernel/state-dir.js';
import { removeStaleTemps, writeTemp } from '../../kernel/state-files.js';
import type { Position, PositionKey, PositionStore } from './position-store.js';

/** Version of the file format; a file of another version is not read. */
const FORMAT = 1;

interface PositionFile {
  format: number;
  api_url: string;
  app_id: string;
  event_id: string | null;
  boards: Record<string, number>;
  saved_at: number;
  /** SHA-256 of the other fields, so a damaged file is told apart from a valid one. */
  checksum: string;
}

/**
 * Positions in small JSON files under `<stateDir>/positions/`, one per API URL and app. A save
 * writes a new file, syncs it to disk and renames it into place, keeping the one it replaces as
 * `.prev`: a crash at any moment leaves a complete file, and a file damaged on disk (its checksum
 * fails) falls back to the previous one; a temporary file a killed save left behind is removed at
 * the next load. No native module, no setup.
 */
export class FilePositionStore implements PositionStore {
  readonly description: string;
  private readonly dir: string;

  /**
   * @param stateDir - the bot's state directory @defaultValue `BOARDBOT_STATE_DIR`, else `.boardbot`
   * @param log - where a damaged file is reported
   */
  constructor(
    stateDir: string = defaultStateDir(),
    private readonly log?: Logger,
  ) {
    this.dir = resolve(stateDir, 'positions');
    this.description = `file ${this.dir}`;
  }

  /** The file that holds the position of `key`. */
  fileOf(key: PositionKey): string {
    const platform = createHash('sha256').update(key.apiUrl).digest('hex').slice(0, 12);
    return join(this.dir, `${safeName(key.appId)}-${platform}.json`);
  }

  async load(key: PositionKey): Promise<Position | undefined> {
    const file = this.fileOf(key);
    // A temporary file of this process's is a save killed in its earlier life (in a container the
    // pid is the same at every start): it saves nothing before it loaded.
    await removeStaleTemps(this.dir, true, 'position', this.log, basename(file));
    for (const candidate of [file, `${file}.prev`]) {
      const found = await this.read(candidate, key);
      if (found !== undefined) {
        if (candidate !== file) this.log?.warn({ file: candidate }, 'resuming from the previous position file');
        return found;
      }
    }
    return undefined;
  }

  async save(key: PositionKey, position: Position): Promise<void> {
    await ensurePrivateDir(this.dir, this.log);
    const file = this.fileOf(key);
    const body = {
      format: FORMAT,
      api_url: key.apiUrl,
      app_id: key.appId,
      event_id: position.eventId ?? null,
      boards: position.boards,
      saved_at: position.savedAt,
    };
    const text = `${JSON.stringify({ ...body, checksum: checksum(body) } satisfies PositionFile)}\n`;
    const tmp = await writeTemp(file, text);
    // Whatever instant a crash hits, `file` or `file.prev` is a complete position.
    await rename(file, `${file}.prev`).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    await rename(tmp, file);
    await syncDir(this.dir);
  }

  private async read(file: string, key: PositionKey): Promise<Position | undefined> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      this.log?.warn({ err, file }, 'cannot read the position file');
      return undefined;
    }
    const problem = validate(text, key);
    if (typeof problem === 'string') {
      this.log?.warn({ file, problem }, `ignoring a damaged position file: ${problem}`);
      return undefined;
    }
    return problem;
  }
}

function validate(text: string, key: PositionKey): Position | string {
  let parsed: PositionFile;
  try {
    parsed = JSON.parse(text) as PositionFile;
  } catch {
    return `not JSON (${text.length} bytes; a torn or foreign file)`;
  }
  if (typeof parsed !== 'object' || parsed === null) return 'not a JSON object';
  if (parsed.format !== FORMAT) return `format ${String(parsed.format)}, expected ${FORMAT}`;
  const { checksum: sum, ...body } = parsed;
  if (sum !== checksum(body)) return 'checksum mismatch (the file was changed or damaged)';
  if (parsed.api_url !== key.apiUrl || parsed.app_id !== key.appId) return 'written for another API URL or app';
  const idOk = parsed.event_id === null || /^\d+$/.test(parsed.event_id);
  const boardsOk = Object.values(parsed.boards ?? {}).every((s) => Number.isSafeInteger(s) && s >= 0);
  if (!idOk || !boardsOk || !Number.isFinite(parsed.saved_at)) return 'fields out of range';
  return { eventId: parsed.event_id ?? undefined, boards: parsed.boards, savedAt: parsed.saved_at };
}

function checksum(body: Omit<PositionFile, 'checksum'>): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_');
}
