import { once } from 'node:events';
import type { Socket } from 'node:net';
import type { Emulator } from '@boardbot/emulator';
import { DEV_TOKEN } from './harness.js';
import { nextAnswer, open, type RawAnswer } from './raw-http.js';

/** A request whose head and first bytes of body are sent, and whose rest waits for `finish`. */
export interface SlowRequest {
  /** The emulator's URL (it listens on a loopback port for this). */
  url: string;
  /** Sends the rest of the body and reads the answer. */
  finish: () => Promise<RawAnswer>;
  /** Sends the same request again, whole (same method, path, key and body), over `fetch`. */
  again: () => Promise<Response>;
}

/**
 * Sends the head of a JSON request as dev-bot with an `Idempotency-Key` and the first bytes of its
 * body, and resolves once the emulator has received the head: its gate, which holds the key, runs on
 * that `request` event (an `onRequest` hook, before the body is read), so by the next turn of the
 * event loop the key is held, however slow the machine.
 */
export async function startSlowRequest(
  emu: Emulator,
  method: string,
  path: string,
  key: string,
  body: string,
): Promise<SlowRequest> {
  const { url } = await emu.listen({ port: 0 });
  const socket: Socket = await open(Number(new URL(url).port));
  const answer = nextAnswer(socket);
  const received = once(emu.app.server, 'request');
  socket.write(
    `${method} ${path} HTTP/1.1\r\nHost: ${new URL(url).host}\r\nAuthorization: Bearer ${DEV_TOKEN}\r\n` +
      `Content-Type: application/json\r\nIdempotency-Key: ${key}\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
  );
  await received;
  await new Promise((resolve) => setImmediate(resolve));
  return {
    url,
    finish: async () => {
      socket.write(body.slice(5));
      try {
        return await answer;
      } finally {
        socket.destroy();
      }
    },
    again: () =>
      fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': key },
        body,
      }),
  };
}
