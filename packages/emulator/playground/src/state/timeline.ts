import type { InteractionView, Message } from '@boardbot/emulator/control';

/** One row of a board's message list. */
export type TimelineItem =
  | { kind: 'message'; key: string; at: string; message: Message }
  | {
      kind: 'interaction';
      key: string;
      at: string;
      view: InteractionView;
      /** The token expired without an answer: "the app did not answer". */
      unanswered: boolean;
    };

/**
 * The rows of a board in reading order: its messages by `seq`, and each invoked command that has no
 * answer yet, at the moment it was invoked (answered ones are shown by their answers, which say who
 * used the command).
 *
 * @param messages - the board's messages by id.
 * @param interactions - the board's interactions by id.
 * @param now - the current time in epoch milliseconds: a pending interaction past `expires_at` is
 *   shown as unanswered even before the emulator's `interaction.update` says so.
 */
export function buildTimeline(
  messages: Readonly<Record<string, Message>> | undefined,
  interactions: Readonly<Record<string, InteractionView>> | undefined,
  now: number,
): TimelineItem[] {
  const list = Object.values(messages ?? {}).sort((a, b) => a.seq - b.seq);
  const answered = new Set(list.flatMap((m) => (m.interaction ? [m.interaction.id] : [])));
  const items: TimelineItem[] = list.map((m) => ({ kind: 'message', key: m.id, at: m.created_at, message: m }));
  const waiting: TimelineItem[] = Object.values(interactions ?? {})
    .filter((v) => v.answers.length === 0 && v.status !== 'answered' && !answered.has(v.interaction.id))
    .map((v) => ({
      kind: 'interaction',
      key: v.interaction.id,
      at: v.interaction.created_at,
      view: v,
      unanswered: v.status === 'expired' || Date.parse(v.interaction.expires_at) <= now,
    }));
  if (waiting.length === 0) return items;
  // Messages keep their `seq` order; each waiting command goes after the messages created before it.
  const merged: TimelineItem[] = [];
  const queue = waiting.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  let q = 0;
  for (const item of items) {
    while (q < queue.length && (queue[q] as TimelineItem).at < item.at) merged.push(queue[q++] as TimelineItem);
    merged.push(item);
  }
  while (q < queue.length) merged.push(queue[q++] as TimelineItem);
  return merged;
}

/** The earliest time a pending interaction of `interactions` expires, to re-render the page then. */
export function nextExpiry(
  interactions: Readonly<Record<string, InteractionView>> | undefined,
  now: number,
): number | undefined {
  let next: number | undefined;
  for (const v of Object.values(interactions ?? {})) {
    if (v.status !== 'pending' || v.answers.length > 0) continue;
    const at = Date.parse(v.interaction.expires_at);
    if (at > now && (next === undefined || at < next)) next = at;
  }
  return next;
}
