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
