import type { ServerResponse } from 'node:http';
import { SseStream, type SseStreamOptions } from './sse-stream.js';

/** A stream registered under a key (an app id, or the activity stream's key), with its mode. */
export interface HubMember {
  stream: SseStream;
  /** While true, live frames are skipped: the stream is replaying the log, which holds them too. */
  replaying: boolean;
}

/** Open streams grouped by key; pushes the same frames to every stream of a key. */
export class StreamHub {
  private readonly byKey = new Map<string, Set<HubMember>>();

  /** Number of open streams under `key`. */
  count(key: string): number {
    return this.byKey.get(key)?.size ?? 0;
  }

  /** Number of open streams in all. */
  get size(): number {
    let n = 0;
    for (const set of this.byKey.values()) n += set.size;
    return n;
  }

  /**
   * Opens a stream on `res` (its head written by `startEventStream`) under `key`: it writes `retry:`
   * and the `ready` frame, then live frames unless `replaying`, and leaves the hub when it ends.
   */
  open(
    key: string,
    res: ServerResponse,
    options: Omit<SseStreamOptions, 'onClose'>,
    ready: string,
    replaying = false,
  ): HubMember {
    const member: HubMember = {
      replaying,
      stream: new SseStream(res, { ...options, onClose: () => this.remove(key, member) }),
    };
    member.stream.write(`retry: 1000\n\n${ready}`);
    let set = this.byKey.get(key);
    if (!set) {
      set = new Set();
      this.byKey.set(key, set);
    }
    set.add(member);
    return member;
  }

  /** Unregisters a member. */
  remove(key: string, member: HubMember): void {
    const set = this.byKey.get(key);
    if (!set) return;
    set.delete(member);
    if (set.size === 0) this.byKey.delete(key);
  }

  /** Pushes `frames` (encoded once by the caller) to every live stream under `key`. */
  push(key: string, frames: Uint8Array): void {
    const set = this.byKey.get(key);
    if (!set) return;
    for (const m of set) if (!m.replaying) m.stream.push(frames);
  }

  /** Ends every stream under `key` (an app was removed). */
  endKey(key: string): void {
    for (const m of [...(this.byKey.get(key) ?? [])]) m.stream.end();
  }

  /** Ends every stream (shutdown, reset). */
  endAll(): void {
    for (const key of [...this.byKey.keys()]) this.endKey(key);
  }
}
