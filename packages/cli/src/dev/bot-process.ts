import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Where the bot's output goes: straight to the terminal, or line by line to a callback. */
export type BotOutput = 'inherit' | { out: (line: string) => void; err: (line: string) => void };

/** Options of {@link BotProcess}. */
export interface BotProcessOptions {
  /** The script to run with `node`: the built entry, or the CLI's own (`boardbot start`). */
  entry: string;
  /** The script's arguments. @defaultValue none */
  args?: readonly string[];
  /** The working directory of the bot. */
  cwd: string;
  /** The bot's whole environment. */
  env: NodeJS.ProcessEnv;
  /** @defaultValue `'inherit'` */
  output?: BotOutput;
  /** How long a stopping bot may take after SIGTERM before it is killed. @defaultValue 10_000 */
  stopTimeoutMs?: number;
  /** Told when the bot exits by itself (not through `stop()`/`restart()`), e.g. a crash at start. */
  onUnexpectedExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
  /** Hears what the bot sends on its IPC channel. @defaultValue nothing listens */
  onMessage?: (message: unknown) => void;
}

/** Defaults of {@link BotProcessOptions}. */
export const DEFAULT_BOT_PROCESS_OPTIONS = {
  output: 'inherit',
  stopTimeoutMs: 10_000,
} as const satisfies Required<Pick<BotProcessOptions, 'output' | 'stopTimeoutMs'>>;

// Loaded before the bot: when the CLI dies without stopping it (kill -9, a crashed terminal), the IPC
// channel closes and the bot stops itself instead of lingering. The channel is unref'd so that it
// never keeps a finished bot alive.
const PARENT_WATCH = [
  'process.channel?.unref();',
  'process.on("disconnect", () => process.kill(process.pid, "SIGTERM"));',
].join('');

/**
 * The bot as a child process of `boardbot dev`: `node <entry>`, restarted after each successful
 * build. It runs in its own process group, so a Ctrl-C in the terminal reaches only the CLI, which
 * then stops the bot with one SIGTERM (the runtime's graceful stop) and, after a timeout, SIGKILL.
 */
export class BotProcess {
  private readonly options: BotProcessOptions & Required<Pick<BotProcessOptions, 'output' | 'stopTimeoutMs'>>;
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private starts = 0;

  /** @param options - see {@link BotProcessOptions} */
  constructor(options: BotProcessOptions) {
    this.options = {
      ...options,
      output: options.output ?? DEFAULT_BOT_PROCESS_OPTIONS.output,
      stopTimeoutMs: options.stopTimeoutMs ?? DEFAULT_BOT_PROCESS_OPTIONS.stopTimeoutMs,
    };
  }

  /** Whether a bot process is running. */
  get running(): boolean {
    return this.child !== undefined;
  }

  /** How many times the bot was started. */
  get startCount(): number {
    return this.starts;
  }

  /** The running bot's process id. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the bot; a running one is stopped first. */
  async restart(): Promise<void> {
    await this.stop();
    this.start();
  }

  /**
   * Sends a message on the running bot's IPC channel; nothing when it has none (it exited).
   * @param message - a value the channel serializes (JSON)
   */
  send(message: unknown): void {
    const child = this.child;
    if (child?.connected) child.send(message as object, (error) => error && undefined);
  }

  /** Starts the bot when none runs (`restart()` stops a running one first). */
  start(): void {
    const { output } = this.options;
    const child = spawn(
      process.execPath,
      [
        '--enable-source-maps',
        '--import',
        `data:text/javascript,${encodeURIComponent(PARENT_WATCH)}`,
        this.options.entry,
        ...(this.options.args ?? []),
      ],
      {
        cwd: this.options.cwd,
        env: this.options.env,
        detached: true,
        stdio: ['ignore', output === 'inherit' ? 'inherit' : 'pipe', output === 'inherit' ? 'inherit' : 'pipe', 'ipc'],
      },
    );
    this.starts++;
    if (output !== 'inherit') {
      if (child.stdout) createInterface({ input: child.stdout }).on('line', output.out);
      if (child.stderr) createInterface({ input: child.stderr }).on('line', output.err);
    }
    this.child = child;
    const { onMessage } = this.options;
    if (onMessage) child.on('message', onMessage);
    this.exited = new Promise<void>((resolve) => {
      // 'close', not 'exit': it comes once the IPC channel is read to its end, so every message the
      // bot sent before it exited was heard.
      child.once('close', (code, signal) => {
        const expected = this.child !== child;
        if (this.child === child) this.child = undefined;
        if (!expected) this.options.onUnexpectedExit?.(code, signal);
        resolve();
      });
      child.once('error', () => {
        // A spawn failure emits no exit: settle here so stop() never waits for ever.
        if (this.child === child) this.child = undefined;
        resolve();
      });
    });
  }

  /** Stops the bot: SIGTERM, then SIGKILL after `stopTimeoutMs`. Resolves once it has exited. */
  async stop(): Promise<void> {
    const child = this.child;
    const exited = this.exited;
    if (!child || !exited) return;
    this.child = undefined;
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const killed = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve();
      }, this.options.stopTimeoutMs);
    });
    await Promise.race([exited, killed]);
    clearTimeout(timer);
    await exited;
    if (child.connected) child.disconnect();
  }
}
