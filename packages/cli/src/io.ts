/** Where a command reads its environment and writes its output; injected so tests need no process. */
export interface CliIo {
  /** Lines for people (URLs, the admin key). */
  out: (line: string) => void;
  /** Problems. */
  err: (line: string) => void;
  /** The environment (`BOARDBOT_TOKEN`, `BOARDBOT_ADMIN_KEY`). */
  env: NodeJS.ProcessEnv;
  /** Subscribes to SIGINT and SIGTERM; returns an unsubscribe function. */
  onSignal: (handler: (signal: NodeJS.Signals) => void) => () => void;
  /** Sets the process exit code. */
  exit: (code: number) => void;
  /** Directory the commands work in (the bot project). @defaultValue `process.cwd()` */
  cwd?: string;
  /**
   * Whether output goes to a terminal: `boardbot dev` then lets the bot write to it directly, so its
   * log is pretty-printed. @defaultValue false
   */
  isTTY?: boolean;
}

/** The real process's I/O. */
export const processIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  onSignal(handler) {
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
    for (const s of signals) process.on(s, handler);
    return () => {
      for (const s of signals) process.off(s, handler);
    };
  },
  exit: (code) => {
    process.exitCode = code;
  },
  get cwd() {
    return process.cwd();
  },
  isTTY: process.stdout.isTTY === true,
};
