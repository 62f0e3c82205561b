import { KeyedQueue } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

/** A task the test finishes by hand. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** A task that only notes `entry` in `log` when it runs. */
function noting(log: string[], entry: string): () => Promise<void> {
  return async () => {
    log.push(entry);
  };
}

describe('KeyedQueue', () => {
  it('starts tasks in arrival order and never runs more than the concurrency', async () => {
    const q = new KeyedQueue(2, () => {});
    const started: number[] = [];
    const gates = [gate(), gate(), gate(), gate()];
    for (const [i, g] of gates.entries()) {
      q.push(undefined, async () => {
        started.push(i);
        await g.opened;
      });
    }
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    gates[1]?.open();
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    await q.idle();
    expect(started).toEqual([0, 1, 2, 3]);
    expect(q.size).toBe(0);
  });

  it('keeps the order of tasks with the same key while other keys run', async () => {
    const q = new KeyedQueue(4, () => {});
    const log: string[] = [];
    const first = gate();
    q.push('m1', async () => {
      log.push('m1:create:start');
      await first.opened;
      log.push('m1:create:end');
    });
    q.push('m1', noting(log, 'm1:edit'));
    q.push('m2', noting(log, 'm2:create'));
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(['m1:create:start', 'm2:create']);
    first.open();
    await q.idle();
    expect(log).toEqual(['m1:create:start', 'm2:create', 'm1:create:end', 'm1:edit']);
  });

  it('a throwing task is reported and does not stop the next ones', async () => {
    const errors: unknown[] = [];
    const q = new KeyedQueue(1, (e) => errors.push(e));
    const ran: string[] = [];
    q.push('k', async () => {
      throw new Error('boom');
    });
    q.push('k', noting(ran, 'second'));
    await q.idle();
    expect(ran).toEqual(['second']);
    expect(errors).toEqual([expect.objectContaining({ message: 'boom' })]);
  });

  it('idle() resolves at once when nothing is queued', async () => {
    await expect(new KeyedQueue(1, () => {}).idle()).resolves.toBeUndefined();
  });

  it('keeps arrival order through a long burst (past the internal compaction)', async () => {
    const q = new KeyedQueue(3, () => {});
    const started: number[] = [];
    for (let i = 0; i < 5000; i++) {
      q.push(i % 7 === 0 ? 'same' : undefined, async () => {
        started.push(i);
      });
    }
    await q.idle();
    expect(started).toHaveLength(5000);
    const sameKey = started.filter((i) => i % 7 === 0);
    expect(sameKey).toEqual([...sameKey].sort((a, b) => a - b));
    expect(q.size).toBe(0);
  });

  it('discards the tasks that have not started, lets the running ones finish, and frees their keys', async () => {
    const q = new KeyedQueue(1, () => {});
    const started: string[] = [];
    const running = gate();
    q.push('m1', async () => {
      started.push('m1:first');
      await running.opened;
    });
    q.push('m1', noting(started, 'm1:second'));
    q.push('m2', noting(started, 'm2'));
    q.push(undefined, noting(started, 'free'));
    expect(q.discardQueued()).toBe(3);
    expect(q.size).toBe(1);
    running.open();
    await q.idle();
    expect(started).toEqual(['m1:first']);
    q.push('m2', noting(started, 'm2 again'));
    q.push('m1', noting(started, 'm1 again'));
    await q.idle();
    expect(started).toEqual(['m1:first', 'm2 again', 'm1 again']);
  });
});
