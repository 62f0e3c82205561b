import type { InteractionView, Message } from '@boardbot/emulator/control';

// The page hears of a record twice (the answer of its own call and the activity stream, or a reload
// racing a live event); these pick the later state so that an old copy never hides a new one.

/** The later of two copies of one message: a tombstone beats everything, then the latest edit. */
export function laterMessage(a: Message | undefined, b: Message): Message {
  if (a === undefined) return b;
  if (a.deleted_at !== null) return a;
  if (b.deleted_at !== null) return b;
  if (a.edited_at !== null && (b.edited_at === null || a.edited_at > b.edited_at)) return a;
  return b;
}

const STATUS_RANK = { pending: 0, expired: 1, answered: 2 } as const;

/**
 * The later of two views of one interaction: the one with more answers, else the more final status
 * (an answer can arrive after an `interaction.update` that said the token expired only if the
 * emulator changed its mind, so `answered` wins).
 */
export function laterInteraction(a: InteractionView | undefined, b: InteractionView): InteractionView {
  if (a === undefined) return b;
  if (a.answers.length !== b.answers.length) return a.answers.length > b.answers.length ? a : b;
  return STATUS_RANK[a.status] > STATUS_RANK[b.status] ? a : b;
}

/** `view` with `answer` among its answers (once) and its status `answered`. */
export function withAnswer(view: InteractionView, answer: Message): InteractionView {
  const others = view.answers.filter((m) => m.id !== answer.id);
  const answers = [...others, answer].sort((x, y) => x.seq - y.seq);
  return { ...view, status: 'answered', answers };
}
