import { ControlApiError, ControlClient } from '@boardbot/emulator/control';
import { type Script, startLoopbackServer } from '@boardbot/test-support';
import { expect } from 'vitest';

/** What `call` rejects with; the test fails if it resolves. */
export function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => expect.unreachable('the call succeeded'),
    (error: unknown) => error,
  );
}

/** The {@link ControlApiError} `call` rejects with: the emulator refused it. The test fails otherwise. */
export async function refusal(call: Promise<unknown>): Promise<ControlApiError> {
  const error = await failure(call);
  expect(error).toBeInstanceOf(ControlApiError);
  return error as ControlApiError;
}

/**
 * What a {@link ControlClient} call rejects with when a loopback server answering with `script` stands
 * where the emulator should (a proxy's page, a server echoing the key). The server is this call's
 * own, closed whatever happens.
 *
 * @param script - how the server answers
 * @param call - the client call to make
 * @param adminKey - the key the client sends
 */
export async function failureAgainst(
  script: Script,
  call: (client: ControlClient) => Promise<unknown>,
  adminKey = 'k',
): Promise<unknown> {
  const server = await startLoopbackServer(script);
  try {
    return await failure(call(new ControlClient({ url: server.origin, adminKey })));
  } finally {
    await server.close();
  }
}
