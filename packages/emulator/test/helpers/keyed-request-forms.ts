import { expect } from 'vitest';
import type { RawAnswer } from './raw-http.js';
import { exchange, type RawRequest, REACHING_FORMS, targetForms } from './targets.js';

/** A request with an `Idempotency-Key`, named by its path: the target is each spelling of it in turn. */
export type KeyedRequest = Omit<RawRequest, 'target' | 'idempotencyKey'> & { path: string; idempotencyKey: string };

/** The spellings of `path` that reach its route's handler ({@link REACHING_FORMS}), as `[form, target]`. */
export function reachingForms(path: string, port: number): [string, string][] {
  return targetForms(path, port).filter(([form]) => REACHING_FORMS.includes(form as never));
}

/**
 * Sends the same keyed request once in every spelling that reaches its route, in turn, and checks that
 * each was answered 200: the first as itself, every later one as its replay (`Idempotent-Replayed:
 * true`). Returns the answers, in the order of {@link reachingForms}.
 */
export async function sendInEveryForm(request: KeyedRequest): Promise<RawAnswer[]> {
  const { path, ...rest } = request;
  const answers: RawAnswer[] = [];
  for (const [, target] of reachingForms(path, request.port)) answers.push(await exchange({ ...rest, target }));
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  expect(answers.map((a) => a.headers['idempotent-replayed'])).toEqual([
    undefined,
    ...answers.slice(1).map(() => 'true'),
  ]);
  return answers;
}

/**
 * Sends a keyed request whose key was already used with another body, in every spelling that reaches
 * its route, and checks each is refused with 422 `idempotency_key_reused` (the form is in the
 * failure message).
 */
export async function expectKeyReusedInEveryForm(request: KeyedRequest): Promise<void> {
  const { path, ...rest } = request;
  for (const [form, target] of reachingForms(path, request.port)) {
    const r = await exchange({ ...rest, target });
    expect([form, r.status, r.json.error.code]).toEqual([form, 422, 'idempotency_key_reused']);
  }
}

/**
 * Holds one `Idempotency-Key` across every spelling of the target: `body` sent with the key in each
 * form that reaches the route is answered once and then replayed, the same answer each time; then
 * `otherBody` with the same key is refused in each form with 422, and those refusals write no event.
 *
 * @param request - the first request, and `otherBody` for the second
 * @param eventCount - how many events the emulator has written so far
 */
export async function expectKeyHeldInEveryForm(
  request: KeyedRequest & { body: string; otherBody: string },
  eventCount: () => number,
): Promise<void> {
  const { otherBody, ...first } = request;
  const answers = await sendInEveryForm(first);
  expect(new Set(answers.map((a) => a.body)).size).toBe(1);
  const events = eventCount();
  await expectKeyReusedInEveryForm({ ...first, body: otherBody });
  expect(eventCount()).toBe(events);
}
