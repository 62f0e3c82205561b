import { InteractionResponseBody, messageBodyIssues } from '@boardbot/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { PlatformError } from '../errors.js';
import { assertNoIssues } from '../http/validation.js';
import { runIdempotent } from '../idempotency/idempotent.js';
import { answerInteraction } from '../platform/interactions.js';
import type { Platform } from '../platform/platform.js';
import { api, guardOf, sendAnswer } from './shared.js';

// Any token text is looked up (by its hash, in the gate): a malformed one is simply unknown (`404 unknown_interaction`).
const TokenParams = Type.Object({ token: Type.String({ minLength: 1 }) });

/**
 * Endpoint 12: answer an interaction. CONTRACT: the token in the path is the only credential; an
 * `Authorization` header is neither required nor read.
 */
export function interactionRoutes(app: FastifyInstance, p: Platform): void {
  app.post<{ Params: { token: string }; Body: InteractionResponseBody }>(
    api('/interactions/:token'),
    {
      config: { auth: 'interaction', idempotent: true },
      schema: { params: TokenParams, body: InteractionResponseBody },
    },
    (request, reply) => {
      // The gate found the interaction of the token (an unknown token never gets this far).
      const row = request.interactionRow;
      if (!row) throw new PlatformError('unknown_interaction', 'No interaction has this token');
      assertNoIssues(messageBodyIssues(request.body));
      const answer = runIdempotent(p, guardOf(request), (out) => {
        const { json } = answerInteraction(p, out, row, request.body);
        return { status: 200, body: json };
      });
      return sendAnswer(reply, answer);
    },
  );
}
