import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

/** A server a test runs as a child process: started, stopped with a signal, started again. */
export interface ServerProcess {
  /** Starts it and resolves once it printed its ready line; rejects with its output if it exits first. */
  start(): Promise<void>;
  /** Sends `signal` (if it still runs) and resolves once it is gone. */
  end(signal: NodeJS.Signals): Promise<void>;
}

/**
 * The lifecycle of a test's server process (redis-server, postgres): each start spawns `binary`
 * with `args` and waits for `readyLine` on its stdout or stderr.
 *
 * @param binary - the server's executable
 * @param args - its arguments
 * @param readyLine - what it prints once it accepts connections
 * @param options - more spawn options (the user to run as)
 */
export function serverProcess(
  binary: string,
  args: readonly string[],
  readyLine: string,
  options: Pick<SpawnOptions, 'uid' | 'gid'> = {},
): ServerProcess {
  let proc: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const name = binary.split('/').pop();
  return {
    start: async () => {
      const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
      proc = child;
      exited = new Promise((resolve) => child.once('exit', () => resolve()));
      let output = '';
      await new Promise<void>((resolve, reject) => {
        const seen = (chunk: Buffer) => {
          output += chunk.toString('utf8');
          if (output.includes(readyLine)) resolve();
        };
        child.stdout?.on('data', seen);
        child.stderr?.on('data', seen);
        child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it was ready:\n${output}`)));
      });
    },
    end: async (signal) => {
      if (proc?.exitCode === null && proc.signalCode === null) proc.kill(signal);
      await exited;
      proc = undefined;
    },
  };
}
