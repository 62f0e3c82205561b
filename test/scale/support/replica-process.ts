import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const main = fileURLToPath(new URL('../../fixtures/replica-bot/dist/main.js', import.meta.url));

/** Builds the replica fixture and the packages it runs on (a no-op when `tsc -b` already ran). */
export function buildReplicaBot(): void {
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-b', 'test/fixtures/replica-bot'], {
    cwd: root,
  });
}

/** One JSON log line of a replica. */
export type LogLine = Record<string, unknown> & { msg?: string };

/** Where a replica runs. */
export interface ReplicaEnv {
  token: string;
  apiUrl: string;
  redisUrl: string;
  /** The replica's id in Redis (unique per process). */
  id: string;
  /** The bot's key prefix, one per test. */
  prefix: string;
  /** More environment (`REPLICA_LEASE_MS`, `REPLICA_HANDLER_MS`...). */
  extra?: Record<string, string>;
  /** Hears every line as it is logged. */
  onLine?: (line: LogLine, replica: ReplicaProcess) => void;
}

/** A replica of the fixture bot as a real process: its log read line by line, killed, paused or stopped on demand. */
export class ReplicaProcess {
  readonly id: string;
  readonly lines: LogLine[] = [];
  readonly exited: Promise<number | NodeJS.Signals>;
  private readonly waiters: { test: (l: LogLine) => boolean; resolve: (l: LogLine) => void }[] = [];
  private readonly proc: ChildProcess;

  /** Starts the replica. */
  constructor(private readonly env: ReplicaEnv) {
    this.id = env.id;
    this.proc = spawn(process.execPath, [main], {
      env: {
        ...process.env,
        BOARDBOT_TOKEN: env.token,
        BOARDBOT_API_URL: env.apiUrl,
        BOARDBOT_REDIS_URL: env.redisUrl,
        REPLICA_ID: env.id,
        REPLICA_KEY_PREFIX: env.prefix,
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

  /** Resolves once the replica logged `bot started`; rejects if it exits first. */
  async started(): Promise<void> {
    const up = this.waitFor((l) => l.msg === 'bot started');
    const died = this.exited.then((code) => {
      throw new Error(`replica ${this.id} exited (${code}) before it started:\n${this.report()}`);
    });
    await Promise.race([up, died]);
  }

  /** Sends a signal: SIGKILL waits for the process to be gone. */
  async signal(signal: 'SIGKILL' | 'SIGSTOP' | 'SIGCONT'): Promise<void> {
    this.proc.kill(signal);
    if (signal === 'SIGKILL') await this.exited;
  }

  /** Asks the replica to stop gracefully; resolves with its exit code. */
  async stop(): Promise<number | NodeJS.Signals> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGTERM');
    return this.exited;
  }

  /** The replica's warnings and errors, for a failure message. */
  report(): string {
    const notable = this.lines.filter((l) => typeof l.level === 'number' && l.level >= 40);
    return `${this.id}: ${notable.map((l) => JSON.stringify(l).slice(0, 400)).join('\n  ') || 'no warnings'}`;
  }

  private take(line: LogLine): void {
    this.lines.push(line);
    this.env.onLine?.(line, this);
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i];
      if (waiter?.test(line)) {
        this.waiters.splice(i, 1);
        waiter.resolve(line);
      }
    }
  }
}
