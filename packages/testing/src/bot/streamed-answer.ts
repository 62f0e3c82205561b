import { isAnswerWriting, type Message } from '@boardbot/protocol';

/** A streamed answer (`ctx.stream`) as people saw it once its final edit arrived. */
export interface StreamedReply {
  /** Its messages, oldest first, in their final state (more than one past the content limit). */
  readonly parts: readonly Message[];
  /** Their contents, joined by a line break. */
  readonly text: string;
  /** Every edit of its messages, in order (the message as each edit left it). */
  readonly edits: readonly Message[];
}

/** A wait for the bot's next streamed answer; see {@link TestBot.nextAnswer}. */
export interface AnswerWait {
  /** Resolves once every part of the answer shows its final text (no placeholder, no cursor). */
  final(): Promise<StreamedReply>;
}

/**
 * The answer among `latest` (the bot's messages matching a filter, oldest first, in their latest
 * state) if it is finished: it has a message, and none still shows the placeholder or the cursor.
 *
 * @param latest - the answer's messages
 * @param editsOf - the edits of one message, in order
 */
export function finishedAnswer(
  latest: readonly Message[],
  editsOf: (id: string) => Message[],
): StreamedReply | undefined {
  const parts = latest.filter((m) => m.deleted_at === null);
  if (parts.length === 0) return undefined;
  if (parts.some((m) => isAnswerWriting(m.content))) return undefined;
  return {
    parts,
    text: parts.map((m) => m.content ?? '').join('\n'),
    edits: parts.flatMap((m) => editsOf(m.id)),
  };
}
