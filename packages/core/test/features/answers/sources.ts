/**
 * A source that gives `text` in `pieces` chunks, one every `everyMs` (a model writing its answer:
 * the pacing is what is under test, not a wait for an event).
 */
export async function* paced(text: string, pieces: number, everyMs: number): AsyncGenerator<string> {
  const size = Math.ceil(text.length / pieces);
  for (let at = 0; at < text.length; at += size) {
    if (at > 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
    yield text.slice(at, at + size);
  }
}

/** A source that gives `first`, then waits for `release` before it throws `error` (or ends, with none). */
export async function* thenFails(first: string, release: Promise<void>, error?: Error): AsyncGenerator<string> {
  yield first;
  await release;
  if (error) throw error;
}

/** A source that gives `first`, then nothing, ever: a stalled model. */
export async function* stalls(first: string): AsyncGenerator<string> {
  yield first;
  await new Promise(() => {});
}

/** The fence lines of a message, to count that each part opens as many as it closes. */
export function fenceLines(content: string): number {
  return content.split('\n').filter((line) => /^ {0,3}(`{3,}|~{3,})/.test(line)).length;
}

/** A source the test writes as it goes: a model whose every piece of text the test decides. */
export interface FedSource {
  /** What the handler streams. */
  readonly source: AsyncIterable<string>;
  /** Gives the next piece of text. */
  push(text: string): void;
  /** Ends the source once the pieces given are read. */
  end(): void;
}

/** A {@link FedSource}: nothing is read until the test pushes it, and it ends when the test says. */
export function fed(): FedSource {
  const pieces: string[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const poke = (): void => {
    wake?.();
    wake = undefined;
  };
  async function* read(): AsyncGenerator<string> {
    for (;;) {
      const piece = pieces.shift();
      if (piece !== undefined) yield piece;
      else if (ended) return;
      else
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
    }
  }
  return {
    source: read(),
    push: (text) => {
      pieces.push(text);
      poke();
    },
    end: () => {
      ended = true;
      poke();
    },
  };
}
