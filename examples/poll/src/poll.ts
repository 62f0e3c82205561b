/** One poll on one board. */
export interface Poll {
  boardId: string;
  question: string;
  /** The choices, in the order people number them (1-based). */
  choices: string[];
  /** Each voter's choice (0-based index), by user id: one vote per person, the latest counts. */
  votes: Map<string, number>;
  /** Who started it: only they can close it. */
  ownerId: string;
  ownerName: string;
  /** The poll message (the answer to `/poll create`), once it is posted. */
  messageId: string | undefined;
  /** Edits of the poll message run one after the other (see `PollBook.refresh`). */
  editing: Promise<void>;
}

/** Votes per choice, in choice order. */
export function countVotes(poll: Poll): number[] {
  const counts = poll.choices.map(() => 0);
  for (const choice of poll.votes.values()) counts[choice] = (counts[choice] ?? 0) + 1;
  return counts;
}

/**
 * Reads a choice the way people write it: its number (`2`) or its text (`sushi`, any case).
 * @returns the 0-based index, or undefined when the text names no choice
 */
export function findChoice(poll: Poll, text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (/^\d{1,2}$/.test(t)) {
    const n = Number(t) - 1;
    return n >= 0 && n < poll.choices.length ? n : undefined;
  }
  const i = poll.choices.findIndex((c) => c.toLowerCase() === t);
  return i === -1 ? undefined : i;
}

/** Most choices a poll can have (and embed fields it needs). */
export const MAX_CHOICES = 10;

/**
 * Splits `"Pizza, Sushi, Tacos"` into distinct, trimmed choices.
 * @returns the choices, or a sentence saying what is wrong
 */
export function parseChoices(text: string): { choices: string[] } | { problem: string } {
  const seen = new Set<string>();
  const choices: string[] = [];
  for (const raw of text.split(',')) {
    const c = raw.trim();
    if (c === '' || seen.has(c.toLowerCase())) continue;
    seen.add(c.toLowerCase());
    choices.push(c);
  }
  if (choices.length < 2 || choices.length > MAX_CHOICES) {
    return { problem: `A poll needs 2 to ${MAX_CHOICES} different choices, separated by commas (Pizza, Sushi).` };
  }
  const long = choices.find((c) => c.length > 80);
  if (long) return { problem: `"${long.slice(0, 20)}…" is too long: keep each choice under 80 characters.` };
  return { choices };
}
