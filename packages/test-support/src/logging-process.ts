import { type ChildProcess, spawn } from 'node:child_process';

/** One JSON log line of a bot process (pino's, or a fixture's own). */
export type JsonLogLine = Record<string, unknown> & { msg?: string };

/** What to run, and who hears its lines. */
export interface LoggingProcessOptions {
  /** The built script Node runs (a fixture bot's `dist/main.js`). */
  script: string;
  /** The script's arguments (the CLI's `start --host ...`). @defaultValue `[]` */
  args?: readonly string[];
  /** Its working directory (a bot project's). @defaultValue this process's */
  cwd?: string;
  /** Its environment, added to this process's. */
  env: Record<string, string | undefined>;
  /** How the failure messages name it (`the bot`, `replica r2`). */
  name: string;
  /** Hears every line as it is logged. */
  onLine?: (line: JsonLogLine) => void;
  /** Opens its stdin, for {@link LoggingProcess.send} (a fixture driven by the test). @defaultValue false */
  stdin?: boolean;
}

/**
 * A bot as a real Node process whose stdout is JSON lines: waits on what it logs, and SIGKILL,
 * SIGSTOP or SIGTERM on demand. The restart and replica tests kill these at random moments.
 */
export class LoggingProcess {
  /** Every line logged so far. */
  readonly lines: JsonLogLine[] = [];
  /** Resolves with the exit code (or the signal) when the process ends. */
  readonly exited: Promise<number | NodeJS.Signals>;
  /** How failure messages name the process. */
  readonly name: string;
  private readonly waiters: { test: (l: JsonLogLine) => boolean; resolve: (l: JsonLogLine) => void }[] = [];
  private readonly proc: ChildProcess;
  private readonly onLine: ((line: JsonLogLine) => void) | undefined;

  /** Starts the process. @param options - script, environment, name */
  constructor(options: LoggingProcessOptions) {
    this.name = options.name;
    this.onLine = options.onLine;
    this.proc = spawn(process.execPath, [options.script, ...(options.args ?? [])], {
      env: { ...process.env, ...options.env },
      ...(options.cwd !== undefined && { cwd: options.cwd }),
      stdio: [options.stdin === true ? 'pipe' : 'ignore', 'pipe', 'inherit'],
    });
    let buffered = '';
    this.proc.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const text of parts) if (text.trim() !== '') this.take(JSON.parse(text) as JsonLogLine);
    });
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  }

  /**
   * Resolves with the first line (logged so far or later) that passes `test`. Rejects after
   * `timeoutMs` with the process's last lines, so a line that never comes fails with what it did
   * instead of hanging until the test's own timeout says nothing.
   */
  waitFor(test: (line: JsonLogLine) => boolean, timeoutMs = 60_000): Promise<JsonLogLine> {
    const found = this.lines.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter = {
        test,
        resolve: (line: JsonLogLine) => {
          clearTimeout(timer);
          resolve(line);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(
          new Error(`${this.name} did not log the awaited line in ${timeoutMs} ms; it last logged:\n${this.tail()}`),
        );
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Resolves once the process logged `bot started`; rejects, with its warnings, if it exits first. */
  async started(): Promise<void> {
    const up = this.waitFor((l) => l.msg === 'bot started');
    const died = this.exited.then((code) => {
      throw new Error(`${this.name} exited (${code}) before it started:\n${this.report()}`);
    });
    await Promise.race([up, died]);
  }

  /**
   * Writes one JSON line to its stdin (opened with `stdin: true`), e.g. a command to a fixture's clock.
   * @param line - the value, sent as one line of JSON
   */
  send(line: unknown): void {
    if (!this.proc.stdin) throw new Error(`${this.name} was started without stdin: pass stdin: true`);
    this.proc.stdin.write(`${JSON.stringify(line)}\n`);
  }

  /** Sends a signal; with SIGKILL, waits for the process to be gone. */
  async signal(signal: 'SIGKILL' | 'SIGSTOP' | 'SIGCONT'): Promise<void> {
    this.proc.kill(signal);
    if (signal === 'SIGKILL') await this.exited;
  }

  /** Kills the process without warning and waits for it to be gone. */
  kill(): Promise<void> {
    return this.signal('SIGKILL');
  }

  /** Asks the process to stop gracefully (SIGTERM); resolves with its exit code. */
  stop(): Promise<number | NodeJS.Signals> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGTERM');
    return this.exited;
  }

  /** Its warnings and errors (level 40 and up), for a failure message. */
  report(): string {
    const notable = this.lines.filter((l) => typeof l.level === 'number' && l.level >= 40);
    return `${this.name}: ${notable.map((l) => JSON.stringify(l).slice(0, 400)).join('\n  ') || 'no warnings'}`;
  }

  /** Its last lines, one per row, for a failure message. */
  private tail(count = 25): string {
    return this.lines
      .slice(-count)
      .map((l) => `  ${JSON.stringify(l).slice(0, 300)}`)
      .join('\n');
  }

  private take(line: JsonLogLine): void {
    this.lines.push(line);
    this.onLine?.(line);
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i];
      if (waiter?.test(line)) {
        this.waiters.splice(i, 1);
        waiter.resolve(line);
      }
    }
  }
}
