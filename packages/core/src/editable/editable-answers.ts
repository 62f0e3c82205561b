import { createHash } from 'node:crypto';
import type { InteractionResponseBody, Message } from '@boardbot/protocol';
import type { AnswerPart, AnswerRecord } from '../answers/answer-record.js';
import { apiCodeOf } from '../kernel/api-code.js';
import type { BotRest } from '../kernel/ports.js';
import { type HandlerRun, namedKey } from '../kernel/run.js';

/** What an editable handler's answers are made with. */
export interface EditableAnswersDeps {
  record: AnswerRecord;
  /** The link's key (`linkKey`). */
  key: string;
  run: HandlerRun;
  /** The handler's client of the run: the deletions at the run's end go through it. */
  rest: BotRest;
  /** The message answered: the answers are replies to it. */
  message: Message;
}

/**
 * What an edit cannot change: the embeds, and whether there is content (an edit carries `content`
 * only, CONTRACT). Two answers with the same look differ by their text alone.
 */
function lookOf(body: InteractionResponseBody): string {
  const shape = JSON.stringify([body.content !== undefined, body.embeds ?? []]);
  return createHash('sha256').update(shape).digest('base64url').slice(0, 16);
}

/**
 * The answers of one run of an editable handler to its message, kept in step with the answers an
 * earlier run gave (the link in the session store): answer `i` edits the earlier answer `i` in place
 * when only its text changed, else is posted as a new reply and the earlier one deleted; once the
 * run ended, the earlier answers beyond this run's are deleted. The link is recorded after every
 * post, before anything is deleted, so a run of the same event again (after a crash) finds what the
 * first one posted. The link is claimed for the run's event before its first answer, so that an
 * earlier event of the message handled again after a crash finds it superseded (`superseded`).
 *
 * Every write has a named key of the run (its basis is the event: the message for its creation, the
 * edit event for a re-run), so a replay of the same event sends the same keys and doubles nothing.
 */
export class EditableAnswers {
  private earlier: Promise<AnswerPart[]> | undefined;
  private readonly parts: AnswerPart[] = [];
  /** Set when a write met `422`: an earlier run of this event went another way, and its answers stand. */
  private diverged = false;
  /** The answers given so far, one after the other: answer `n` is the `n`-th to be asked for. */
  private turn: Promise<unknown> = Promise.resolve();
  /** Set when the run was held back silently (a listener's cooldown or guard): the earlier answers stand. */
  private held = false;

  /** @param deps - the record, the link's key, the run and the message */
  constructor(private readonly deps: EditableAnswersDeps) {}

  /**
   * Says the run was held back without a word (a listener's cooldown or guard): its handler did not
   * run, so the message's earlier answers stay as they are instead of following a run that said nothing.
   */
  holdBack(): void {
    this.held = true;
  }

  /**
   * Gives the run's next answer: edits the earlier answer at its place, or posts it (replacing the
   * earlier one whose look differs).
   * @param body - the answer
   * @param rest - the run's client the answer goes through (the handler's, or the runtime's)
   * @throws the REST error of a write (a `422` stops the run as its ending says: already applied)
   */
  reply(body: InteractionResponseBody, rest: BotRest): Promise<Message> {
    // Replies made side by side (`Promise.all`) still take their places in the order they were made.
    const next = this.turn.then(() => this.give(body, rest));
    this.turn = next.catch(() => {});
    return next;
  }

  private async give(body: InteractionResponseBody, rest: BotRest): Promise<Message> {
    const earlier = await this.load();
    const i = this.parts.length;
    const old = earlier[i];
    const look = lookOf(body);
    if (old && old.look === look && body.content !== undefined) {
      const edited = await this.guard(() =>
        rest.editMessage(
          old.boardId,
          old.messageId,
          { content: body.content as string },
          { idempotencyKey: namedKey(this.deps.run, `answer.${i}.edit`) },
        ),
      );
      this.parts.push(old);
      return edited;
    }
    const { message, run } = this.deps;
    const sent = await this.guard(() =>
      rest.sendMessage(
        message.board_id,
        { ...body, replyTo: message.id },
        { idempotencyKey: namedKey(run, `answer.${i}`) },
      ),
    );
    const part = { boardId: sent.board_id, messageId: sent.id, look };
    this.parts.push(part);
    // Recorded with the answer it replaces, which is deleted next: a crash between them leaves the
    // earlier answer linked, and the next run of an edit deletes it.
    await this.remember(old);
    if (old) {
      await rest.deleteMessage(old.boardId, old.messageId);
      await this.remember();
    }
    return sent;
  }

  /**
   * Ends the run's answers: deletes the earlier answers beyond this run's (unless the run met an
   * earlier run's write) and records the link, which an edit of the message follows.
   */
  async finish(): Promise<void> {
    await this.turn;
    if (this.held && this.parts.length === 0) return;
    const earlier = await this.load();
    if (!this.diverged) {
      const kept = new Set(this.parts.map((p) => p.messageId));
      for (const p of earlier.slice(this.parts.length)) {
        if (!kept.has(p.messageId)) await this.deps.rest.deleteMessage(p.boardId, p.messageId);
      }
      earlier.length = Math.min(earlier.length, this.parts.length);
    }
    await this.remember();
  }

  private load(): Promise<AnswerPart[]> {
    this.earlier ??= this.claim();
    return this.earlier;
  }

  /** Reads the earlier answers, and records the link as this event's before any answer is written. */
  private async claim(): Promise<AnswerPart[]> {
    const { record, key, run } = this.deps;
    const link = await record.find(key);
    const parts = link?.parts ?? [];
    if (link?.by !== run.eventId) await record.write(key, parts, run.eventId);
    return parts;
  }

  /** Records this run's answers, then `replaced` and the earlier ones beyond them (not deleted yet). */
  private async remember(replaced?: AnswerPart): Promise<void> {
    const earlier = await this.load();
    const rest = earlier.slice(this.parts.length);
    const parts = [...this.parts, ...(replaced ? [replaced] : []), ...rest];
    await this.deps.record.write(this.deps.key, parts, this.deps.run.eventId);
  }

  private async guard<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      if (apiCodeOf(error) === 'idempotency_key_reused') this.diverged = true;
      throw error;
    }
  }
}
