import { API_PREFIX, Uuid } from '@boardbot/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PlatformError } from '../errors.js';
import { fingerprint, type IdempotencyGuard, type StoredAnswer } from '../idempotency/idempotent.js';
import type { Platform } from '../platform/platform.js';
import type { AppRow } from '../store/apps.js';

/** Path of an app API route. */
export const api = (path: string) => `${API_PREFIX}${path}`;

/** Path parameters `{ boardId }`. */
export const BoardParams = Type.Object({ boardId: Uuid });
/** Path parameters `{ boardId, messageId }`. */
export const MessageParams = Type.Object({ boardId: Uuid, messageId: Uuid });

/** The JSON content type of every answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** The authenticated app of a route with `auth: 'app'` (the gate guarantees it). */
export function appOf(request: FastifyRequest): AppRow {
  const app = request.appRow;
  if (!app) throw new PlatformError('unauthorized', 'Missing Authorization: Bearer <app token> header');
  return app;
}

/**
 * Checks that the app is installed on the board. CONTRACT: a board the app is not installed on is
 * `404 unknown_board`, exactly like one that does not exist (no existence leak).
 */
export function requireInstalled(p: Platform, app: AppRow, boardId: string): void {
  if (!p.store.boards.isMember(boardId, app.bot_user_id)) {
    throw new PlatformError(
      'unknown_board',
      'No board with this id is visible to the app (is the app installed on it?)',
    );
  }
}

/**
 * The idempotency guard of a request that holds an `Idempotency-Key`. Its fingerprint is the route
 * that matched and its decoded parameters, never the URL's text: two spellings of one target (an
 * absolute-form or percent-encoded one) are the same request.
 */
export function guardOf(request: FastifyRequest): IdempotencyGuard | undefined {
  const held = request.heldKey;
  if (!held) return undefined;
  const target = { route: request.routeOptions.url, params: request.params };
  return { ...held, fingerprint: fingerprint(request.method, target, request.body) };
}

/**
 * Answers with a JSON text already serialized (messages are serialized once, at write time): sets
 * the status and type, and gives the text back for the handler to return. Fastify sends a returned
 * string as it is; a returned `reply` is a thenable it would wait on, with an end-of-stream listener
 * set on the response of every answer still waiting for its commit.
 */
export function sendJsonText(reply: FastifyReply, status: number, body: string): string {
  reply.code(status).type(JSON_TYPE);
  return body;
}

/** Answers with a stored answer (see {@link sendJsonText}), marking a replay with `Idempotent-Replayed: true`. */
export function sendAnswer(reply: FastifyReply, answer: StoredAnswer): string {
  if (answer.replayed) reply.header('Idempotent-Replayed', 'true');
  return sendJsonText(reply, answer.status, answer.body);
}
