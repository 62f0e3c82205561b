import type { FastifyInstance } from 'fastify';
import {
  CONTROL_QUERY_DEFAULTS as DEFAULTS,
  IdParams,
  InteractionListQuery,
  InvokeBody,
  WaitQuery,
} from '../../control/schemas/requests.js';
import { PlatformError } from '../../errors.js';
import { interactionViewText } from '../../platform/interactions.js';
import { type Invocation, invokeCommand } from '../../platform/invoke.js';
import type { Platform } from '../../platform/platform.js';
import type { InteractionRow } from '../../store/interactions.js';
import { sendJsonText } from '../shared.js';
import { ADMIN, ctl } from './shared.js';

/** Slash commands as a person: invoke, list, read, and wait for answers. */
export function controlInteractionRoutes(app: FastifyInstance, p: Platform): void {
  const find = (id: string): InteractionRow => {
    const row = p.store.interactions.byId(id);
    if (!row) throw new PlatformError('unknown_interaction', 'No interaction with this id');
    return row;
  };

  app.post<{ Body: Invocation }>(ctl('/interactions'), { ...ADMIN, schema: { body: InvokeBody } }, (request, reply) => {
    // The token is the app's credential: the control API never shows it. The stored text has none.
    const { json } = p.write((out) => invokeCommand(p, out, request.body));
    return sendJsonText(reply, 201, `{"interaction":${json}}`);
  });

  app.get<{ Querystring: typeof InteractionListQuery.static }>(
    ctl('/interactions'),
    { ...ADMIN, schema: { querystring: InteractionListQuery } },
    (request, reply) => {
      const { board_id, limit = DEFAULTS.interactionLimit } = request.query;
      const views = p.store.interactions.list(limit, board_id).map((r) => interactionViewText(p, r).json);
      return sendJsonText(reply, 200, `{"interactions":[${views.join(',')}]}`);
    },
  );

  app.get<{ Params: { id: string } }>(
    ctl('/interactions/:id'),
    { ...ADMIN, schema: { params: IdParams } },
    (request, reply) => sendJsonText(reply, 200, interactionViewText(p, find(request.params.id)).json),
  );

  app.get<{ Params: { id: string }; Querystring: typeof WaitQuery.static }>(
    ctl('/interactions/:id/wait'),
    { ...ADMIN, schema: { params: IdParams, querystring: WaitQuery } },
    async (request, reply) => {
      const { id } = request.params;
      const { answers = DEFAULTS.waitAnswers, timeout_ms = DEFAULTS.waitTimeoutMs } = request.query;
      const deadline = Date.now() + timeout_ms;
      let view = interactionViewText(p, find(id));
      // A request is destroyed once it closed: its caller went away, so nobody reads the answer.
      while (view.answers < answers && Date.now() < deadline && !request.raw.destroyed && !p.isDisposed) {
        await p.answerWaiters.next(id, deadline - Date.now(), request.raw);
        const row = p.store.interactions.byId(id);
        if (!row) break;
        view = interactionViewText(p, row);
      }
      return sendJsonText(reply, 200, view.json);
    },
  );
}
