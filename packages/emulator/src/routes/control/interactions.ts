import type { FastifyInstance } from 'fastify';
import {
  CONTROL_QUERY_DEFAULTS as DEFAULTS,
  IdParams,
  InteractionListQuery,
  InvokeBody,
  WaitQuery,
} from '../../control/schemas/requests.js';
import type { InteractionList, InteractionView, InvokedInteraction } from '../../control/schemas/responses.js';
import { PlatformError } from '../../errors.js';
import { interactionView } from '../../platform/interactions.js';
import { type Invocation, invokeCommand } from '../../platform/invoke.js';
import type { Platform } from '../../platform/platform.js';
import type { InteractionRow } from '../../store/interactions.js';
import { ADMIN, ctl } from './shared.js';

/** Slash commands as a person: invoke, list, read, and wait for answers. */
export function controlInteractionRoutes(app: FastifyInstance, p: Platform): void {
  const find = (id: string): InteractionRow => {
    const row = p.store.interactions.byId(id);
    if (!row) throw new PlatformError('unknown_interaction', 'No interaction with this id');
    return row;
  };

  app.post<{ Body: Invocation; Reply: InvokedInteraction }>(
    ctl('/interactions'),
    { ...ADMIN, schema: { body: InvokeBody } },
    (request, reply) => {
      const interaction = p.write((out) => invokeCommand(p, out, request.body));
      // The token is the app's credential: the control API never shows it.
      const { token: _token, ...shown } = interaction;
      reply.code(201);
      return { interaction: shown };
    },
  );

  app.get<{ Querystring: typeof InteractionListQuery.static; Reply: InteractionList }>(
    ctl('/interactions'),
    { ...ADMIN, schema: { querystring: InteractionListQuery } },
    (request) => {
      const { board_id, limit = DEFAULTS.interactionLimit } = request.query;
      return { interactions: p.store.interactions.list(limit, board_id).map((r) => interactionView(p, r)) };
    },
  );

  app.get<{ Params: { id: string }; Reply: InteractionView }>(
    ctl('/interactions/:id'),
    { ...ADMIN, schema: { params: IdParams } },
    (request) => interactionView(p, find(request.params.id)),
  );

  app.get<{ Params: { id: string }; Querystring: typeof WaitQuery.static; Reply: InteractionView }>(
    ctl('/interactions/:id/wait'),
    { ...ADMIN, schema: { params: IdParams, querystring: WaitQuery } },
    async (request) => {
      const { id } = request.params;
      const { answers = DEFAULTS.waitAnswers, timeout_ms = DEFAULTS.waitTimeoutMs } = request.query;
      const deadline = Date.now() + timeout_ms;
      let view = interactionView(p, find(id));
      // A request is destroyed once it closed: its caller went away, so nobody reads the answer.
      while (view.answers.length < answers && Date.now() < deadline && !request.raw.destroyed && !p.isDisposed) {
        await p.answerWaiters.next(id, deadline - Date.now(), request.raw);
        const row = p.store.interactions.byId(id);
        if (!row) break;
        view = interactionView(p, row);
      }
      return view;
    },
  );
}
