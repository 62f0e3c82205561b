import type { CliIo } from '@boardbot/cli';

/** A {@link CliIo} that records what a command prints and lets the test send it signals. */
export interface TestIo extends CliIo {
  lines: string[];
  errors: string[];
  exitCodes: number[];
  /** Sends a signal to the command's handlers. */
  signal(signal: NodeJS.Signals): void;
  /** Everything printed so far, one string. */
  text(): string;
}

/**
 * @param cwd - the directory the command runs in
 * @param env - the environment (never the real `process.env`)
 */
export function testIo(cwd: string, env: NodeJS.ProcessEnv = {}): TestIo {
  const handlers = new Set<(signal: NodeJS.Signals) => void>();
  const io: TestIo = {
    lines: [],
    errors: [],
    exitCodes: [],
    env,
    cwd,
    isTTY: false,
    out: (line) => io.lines.push(line),
    err: (line) => io.errors.push(line),
    exit: (code) => io.exitCodes.push(code),
    onSignal(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    signal(signal) {
      for (const h of [...handlers]) h(signal);
    },
    text: () => [...io.lines, ...io.errors].join('\n'),
  };
  return io;
}
