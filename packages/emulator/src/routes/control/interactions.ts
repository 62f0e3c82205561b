import type { ServerResponse } from 'node:http';
import { isAnswerWriting, type Message } from '@boardbot/protocol';
import type { FastifyInstance } from 'fastify';
import { CONTROL_QUERY_DEFAULTS as DEFAULTS } from '../../control/schemas/defaults.js';
import type { InteractionListQuery, InvokeBody, InvokeQuery, WaitQuery } from '../../control/schemas/requests.js';
import { PlatformError } from '../../errors.js';
import { interactionViewText } from '../../platform/interactions.js';
import { invokeCommand } from '../../platform/invoke.js';
import type { Platform } from '../../platform/platform.js';
import type { InteractionRow } from '../../store/interactions.js';
import { sendJsonText } from '../shared.js';
import { controlRoute } from './shared.js';

/** Slash commands as a person: invoke, list, read, and wait for answers. */
export function controlInteractionRoutes(app: FastifyInstance, p: Platform): void {
  const find = (id: string): InteractionRow => {
    const row = p.store.interactions.byId(id);
    if (!row) throw new PlatformError('unknown_interaction', 'No interaction with this id');
    return row;
  };

  /** Whether interaction `id` lacks answers, or (`final`) one of them is still being written. */
  const short = (id: string, view: { answers: number }, query: WaitQuery): boolean => {
    if (view.answers < (query.answers ?? DEFAULTS.waitAnswers)) return true;
    if (query.final !== 'true') return false;
    return p.store.interactions.answersJson(id).some((json) => isAnswerWriting((JSON.parse(json) as Message).content));
  };

  /**
   * The view of interaction `id` once it has `answers` answers (and, with `final`, none of them is still
   * being written), after `timeout_ms`, when the caller went
   * away (its response is destroyed once the connection closed: nobody reads the answer) or when the
   * emulator closes, whichever comes first. The response, not the request, tells: a request with a
   * body closes as soon as the body was read.
   */
  const waitForAnswers = async (id: string, query: WaitQuery, response: ServerResponse): Promise<string> => {
    const { timeout_ms = DEFAULTS.waitTimeoutMs } = query;
    const deadline = Date.now() + timeout_ms;
    let view = interactionViewText(p, find(id));
    while (short(id, view, query) && Date.now() < deadline && !response.destroyed && !p.isDisposed) {
      await p.answerWaiters.next(id, deadline - Date.now(), response);
      const row = p.store.interactions.byId(id);
      if (!row) break;
      view = interactionViewText(p, row);
    }
    return view.json;
  };

  controlRoute<{ Body: InvokeBody; Querystring: InvokeQuery }>(app, 'invokeCommand', (request, reply) => {
    // The token is the app's credential: the control API never shows it. The stored text has none.
    const { interaction, json } = p.write((out) => invokeCommand(p, out, request.body));
    const { answers, timeout_ms, final } = request.query;
    // Without a wait, the text itself: no promise for Fastify to wait on (see `sendJsonText`).
    if (answers === undefined && timeout_ms === undefined && final === undefined)
      return sendJsonText(reply, 201, `{"interaction":${json}}`);
    // After the commit: one that fails refuses the invocation now, not after the wait.
    return p
      .flushed()
      .then(() => waitForAnswers(interaction.id, request.query, reply.raw))
      .then((view) => sendJsonText(reply, 201, view));
  });

  controlRoute<{ Querystring: typeof InteractionListQuery.static }>(app, 'listInteractions', (request, reply) => {
    const { board_id, limit = DEFAULTS.interactionLimit } = request.query;
    const views = p.store.interactions.list(limit, board_id).map((r) => interactionViewText(p, r).json);
    return sendJsonText(reply, 200, `{"interactions":[${views.join(',')}]}`);
  });

  controlRoute<{ Params: { id: string } }>(app, 'getInteraction', (request, reply) =>
    sendJsonText(reply, 200, interactionViewText(p, find(request.params.id)).json),
  );

  controlRoute<{ Params: { id: string }; Querystring: WaitQuery }>(app, 'waitForAnswers', async (request, reply) =>
    sendJsonText(reply, 200, await waitForAnswers(request.params.id, request.query, reply.raw)),
  );
}
