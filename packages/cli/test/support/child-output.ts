import type { ChildProcess } from 'node:child_process';

/**
 * Collects what a child process writes to stdout and stderr, interleaved as it arrives (the child
 * must be spawned with both piped). Returns what reads it so far.
 */
export function collectOutput(child: ChildProcess): () => string {
  let output = '';
  const append = (chunk: Buffer | string) => {
    output += chunk;
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return () => output;
}
