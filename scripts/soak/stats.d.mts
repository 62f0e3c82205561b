/** The rule's verdict on one process's heap after GC. */
export interface LeakVerdict {
  windowMinutes: number;
  samples: number;
  slopeMbPerMinute: number | null;
  slope95: [number, number] | null;
  scatterMb: number | null;
  growthMb: number | null;
  verdict: 'leak' | 'no leak' | 'too short to say';
}

/** The leak verdict on heap samples after GC of a run of `runMinutes` (see stats.mjs). */
export function leakVerdict(memory: readonly { minute: number; heapMb: number }[], runMinutes: number): LeakVerdict;

/** A run's verdict from its processes' own: that of the processes that lived the rule's window (see stats.mjs). */
export function runVerdict(
  memory: readonly { replica: string; lifeMinutes: number; verdict: string }[],
  runMinutes: number,
): { windowMinutes: number; judged: string[]; verdict: 'leak' | 'no leak' | 'too short to say' };
