import type { StreamStopReason } from '../errors.js';
import type { Clock } from '../kernel/clock.js';
import type { StreamSource } from './stream-options.js';

/** One read of a source: text, its end, or why reading stopped before it. */
export type ReadStep =
  | { kind: 'text'; text: string }
  | { kind: 'done' }
  | { kind: 'stopped'; reason: Exclude<StreamStopReason, 'too_long'>; cause?: unknown };

const INTERRUPTED: ReadStep = { kind: 'stopped', reason: 'interrupted' };

/** Pulls text, one read at a time, from either kind of source. */
interface Pull {
  next(): Promise<IteratorResult<string>>;
  cancel(): void;
}

function pullOf(source: StreamSource): Pull {
  if (typeof (source as ReadableStream<string>).getReader === 'function') {
    const reader = (source as ReadableStream<string>).getReader();
    return {
      next: async () => {
        const r = await reader.read();
        return r.done ? { done: true, value: undefined } : { done: false, value: r.value };
      },
      cancel: () => void reader.cancel().catch(() => {}),
    };
  }
  const iterator = (source as AsyncIterable<string>)[Symbol.asyncIterator]();
  return {
    next: () => iterator.next(),
    // The source is told to stop (an AI SDK stream then ends its request), whatever it answers.
    cancel: () => void Promise.resolve(iterator.return?.()).catch(() => {}),
  };
}

/**
 * Reads a streamed answer's source under its bounds: each read waits at most `idleMs`, and none
 * goes past `deadline`; an abort of `signal` (the handler abandoned) or of `stopping` (the bot began
 * to stop) stops it too. A source that
 * stops being read is cancelled, so a model call behind it ends.
 */
export class SourceReader {
  private readonly pull: Pull;

  /**
   * @param source - the text's source
   * @param clock - the runtime's clock
   * @param signal - the run's signal
   * @param stopping - the run's stop signal
   */
  constructor(
    source: StreamSource,
    private readonly clock: Clock,
    private readonly signal: AbortSignal,
    private readonly stopping: AbortSignal,
  ) {
    this.pull = pullOf(source);
  }

  /**
   * The next step of the source.
   * @param idleMs - longest wait for it
   * @param deadline - epoch ms past which the stream stops
   */
  async next(idleMs: number, deadline: number): Promise<ReadStep> {
    const left = deadline - this.clock.now();
    if (left <= 0) return this.stop({ kind: 'stopped', reason: 'too_long_running' });
    if (this.stopping.aborted) return this.stop(INTERRUPTED);
    const late = left < idleMs;
    let timer: unknown;
    let onAbort: (() => void) | undefined;
    let onStop: (() => void) | undefined;
    const bound = new Promise<ReadStep>((resolve) => {
      timer = this.clock.setTimeout(
        () => resolve({ kind: 'stopped', reason: late ? 'too_long_running' : 'idle' }),
        late ? left : idleMs,
      );
      onAbort = () => resolve({ kind: 'stopped', reason: 'failed', cause: this.signal.reason });
      this.signal.addEventListener('abort', onAbort, { once: true });
      onStop = () => resolve(INTERRUPTED);
      this.stopping.addEventListener('abort', onStop, { once: true });
    });
    const read = this.pull.next().then(
      (r): ReadStep => (r.done ? { kind: 'done' } : { kind: 'text', text: String(r.value ?? '') }),
      (error: unknown): ReadStep => ({ kind: 'stopped', reason: 'failed', cause: error }),
    );
    try {
      const step = await Promise.race([read, bound]);
      return step.kind === 'stopped' ? this.stop(step) : step;
    } finally {
      this.clock.clearTimeout(timer);
      if (onAbort) this.signal.removeEventListener('abort', onAbort);
      if (onStop) this.stopping.removeEventListener('abort', onStop);
    }
  }

  /** Stops reading: the source is cancelled. */
  stop<S extends ReadStep>(step: S): S {
    this.pull.cancel();
    return step;
  }
}
