import { execFileSync } from 'node:child_process';
import { cpus, setPriority } from 'node:os';

/**
 * Where a bench's processes run: `shared`, as the scheduler likes (every core, default priority);
 * `first`, on any core but at a higher priority than other work on the machine (this process's main
 * thread and the server it talks to); or `apart`, as `first` and each on a core of its own (this
 * process on the first core, the server on the last), so that neither waits for the other.
 * Comparing them in the same run separates what the machine's scheduling adds from what the code
 * under test costs.
 */
export type Placement = 'shared' | 'first' | 'apart';

/** Moves processes between placements; `available` is false where it cannot (one core, no `taskset`, no rights). */
export interface Placer {
  available: boolean;
  /** Why `apart` is not available, or what of it is not (the priority). */
  note: string;
  place(placement: Placement): void;
}

/** Higher than the default 0, below the kernel's own threads; a weight, not a real-time class. */
const NICE = -15;

/**
 * A placer for this process and the server process `serverPid`.
 * @param serverPid - the server's process id (Redis reports its own in `INFO server`)
 */
export function placer(serverPid: number): Placer {
  const last = cpus().length - 1;
  const all = `0-${last}`;
  const affinity = (pid: number, list: string) => execFileSync('taskset', ['-a', '-p', '-c', list, String(pid)]);
  const nice = (pid: number, value: number) => setPriority(pid, value);
  if (last < 1) return { available: false, note: 'one core: nothing to keep apart', place() {} };
  try {
    affinity(serverPid, all);
  } catch {
    return { available: false, note: 'taskset missing or not permitted', place() {} };
  }
  let prioritized = true;
  try {
    nice(serverPid, 0);
    nice(process.pid, 0);
  } catch {
    prioritized = false;
  }
  return {
    available: true,
    note: prioritized ? `nice ${NICE}` : 'no right to raise priority: first is shared',
    place(placement) {
      const apart = placement === 'apart';
      affinity(process.pid, apart ? '0' : all);
      affinity(serverPid, apart ? String(last) : all);
      if (!prioritized) return;
      nice(process.pid, placement === 'shared' ? 0 : NICE);
      nice(serverPid, placement === 'shared' ? 0 : NICE);
    },
  };
}
