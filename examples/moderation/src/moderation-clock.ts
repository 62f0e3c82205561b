import type { Clock } from '@boardbot/core';

/**
 * The moderator's sense of time (flood windows, when a warning is deleted): a provider, so tests
 * give the same manual clock to the bot and to the runtime and decide when time passes. The real
 * one's timers never keep a stopping process alive.
 */
export class ModerationClock implements Clock {
  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, ms: number): unknown {
    return setTimeout(fn, ms).unref();
  }

  clearTimeout(handle: unknown): void {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  }
}
