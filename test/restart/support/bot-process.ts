import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const main = fileURLToPath(new URL('../../fixtures/restart-bot/dist/main.js', import.meta.url));

/** Builds the fixture bot and the packages it runs on (a no-op when `tsc -b` already ran, as in `npm test`). */
export function buildFixtureBot(): void {
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-b', 'test/fixtures/restart-bot'], {
    cwd: root,
  });
}

/** One JSON log line of the bot (pino, or the fixture's own). */
export type LogLine = Record<string, unknown> & { msg?: string };

/** Where the bot runs and what it knows. */
export interface BotEnv {
  token: string;
  apiUrl: string;
  stateDir: string;
  /** Extra environment, e.g. `HOLD_AFTER_WRITE`. */
  extra?: Record<string, string>;
}

/**
 * The restart tests' bot as a real process: its stdout read line by line, waits on what it logs,
 * and SIGKILL or SIGTERM on demand.
 */
export class BotProcess {
  readonly lines: LogLine[] = [];
  private readonly waiters: { test: (l: LogLine) => boolean; resolve: (l: LogLine) => void }[] = [];
  private readonly proc: ChildProcess;
  /** Resolves with the exit code (or the signal) when the process ends. */
  readonly exited: Promise<number | NodeJS.Signals>;

  /** Starts the bot. @param env - token, API URL, state directory */
  constructor(env: BotEnv) {
    this.proc = spawn(process.execPath, [main], {
      env: {
        ...process.env,
        BOARDBOT_TOKEN: env.token,
        BOARDBOT_API_URL: env.apiUrl,
        BOARDBOT_STATE_DIR: env.stateDir,
        LOG_LEVEL: 'info',
        ...env.extra,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffered = '';
    this.proc.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const text of parts) if (text.trim() !== '') this.take(JSON.parse(text) as LogLine);
    });
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  }

  /** Resolves with the first line (logged so far or later) that passes `test`. */
  waitFor(test: (line: LogLine) => boolean): Promise<LogLine> {
    const found = this.lines.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  /** Resolves once the bot logged `bot started`; rejects if it exits first. */
  async started(): Promise<void> {
    const up = this.waitFor((l) => l.msg === 'bot started');
    const died = this.exited.then((code) => {
      throw new Error(`the bot exited (${code}) before it started:\n${this.lines.map((l) => l.msg).join('\n')}`);
    });
    await Promise.race([up, died]);
  }

  /** Kills the process without warning and waits for it to be gone. */
  async kill(): Promise<void> {
    this.proc.kill('SIGKILL');
    await this.exited;
  }

  /** Asks the bot to stop gracefully; resolves with its exit code. */
  async stop(): Promise<number | NodeJS.Signals> {
    this.proc.kill('SIGTERM');
    return this.exited;
  }

  private take(line: LogLine): void {
    this.lines.push(line);
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i];
      if (waiter?.test(line)) {
        this.waiters.splice(i, 1);
        waiter.resolve(line);
      }
    }
  }
}
