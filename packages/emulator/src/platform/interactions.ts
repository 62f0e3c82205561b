import type { Embed, Interaction } from '@boardbot/protocol';
import type { InteractionView } from '../control/schemas/responses.js';
import { PlatformError } from '../errors.js';
import type { InteractionRow } from '../store/interactions.js';
import { createMessage, type MessageResult } from './messages.js';
import type { Outbox } from './outbox.js';
import type { Platform } from './platform.js';

/** An interaction's view as JSON text, and how many answers it holds. */
export interface InteractionViewText {
  json: string;
  answers: number;
}

/**
 * The control API's view of a stored interaction as JSON text, put together from the texts stored
 * at write time: nothing is parsed and written again (a wait answers with it; see
 * {@link interactionView} for the object). Same fields, same order as the object.
 */
export function interactionViewText(p: Platform, row: InteractionRow): InteractionViewText {
  const answers = p.store.interactions.answersJson(row.id);
  const status = answers.length > 0 ? 'answered' : p.now() >= row.expires_at_ms ? 'expired' : 'pending';
  return {
    json: `{"interaction":${row.json},"status":"${status}","answers":[${answers.join(',')}]}`,
    answers: answers.length,
  };
}

/** The control API's view of a stored interaction (the activity stream's events). */
export function interactionView(p: Platform, row: InteractionRow): InteractionView {
  return JSON.parse(interactionViewText(p, row).json) as InteractionView;
}

/**
 * Answers an interaction with a message in its board (inside a write): the first answer is the
 * reply, later ones are follow-ups. CONTRACT: within 15 minutes of the invocation (then `410
 * interaction_expired`), up to 5 answers (a sixth is `410 interaction_exhausted`).
 */
export function answerInteraction(
  p: Platform,
  out: Outbox,
  row: InteractionRow,
  body: { content?: string; embeds?: Embed[] },
): MessageResult {
  if (p.now() >= row.expires_at_ms) {
    throw new PlatformError('interaction_expired', 'The interaction token expired 15 minutes after the invocation');
  }
  if (row.answers >= p.limits.interactionAnswers) {
    throw new PlatformError(
      'interaction_exhausted',
      `The interaction token is used up: it accepts ${p.limits.interactionAnswers} answers (the reply and its follow-ups)`,
    );
  }
  const app = p.store.apps.byId(row.app_id);
  if (!app || !p.store.boards.isMember(row.board_id, app.bot_user_id)) {
    // The app was removed from the board after the invocation: the interaction can no longer be answered.
    throw new PlatformError('unknown_interaction', 'The app is no longer installed on the interaction’s board');
  }
  const stored = JSON.parse(row.json) as Omit<Interaction, 'token'>;
  const result = createMessage(p, out, {
    boardId: row.board_id,
    author: app.bot_user_id,
    ...body,
    interaction: { id: row.id, name: stored.command.name, user_id: stored.user.id },
  });
  p.store.interactions.addAnswer(row.id, row.board_id, result.message.seq);
  // The view costs a read and JSON: built only for an open activity stream.
  const updated = out.wantsActivity ? p.store.interactions.byId(row.id) : undefined;
  if (updated) out.activityEvent('interaction.update', { interaction: interactionView(p, updated) });
  out.afterCommit.push(() => p.answerWaiters.notify(row.id));
  return result;
}
