import type { Message, OptionValue, UserProfile } from '@boardbot/emulator/control';

// Small, pure formatting helpers shared by the components.

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** `10:42`, the time of day of an RFC 3339 time, in the reader's locale. */
export function shortTime(iso: string): string {
  return timeFormat.format(new Date(iso));
}

/** `21 Nov 2026, 10:42:03`, for tooltips and `<time>` titles. */
export function longTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
}

/** Who wrote a message, as the page names them. */
export interface AuthorLabel {
  name: string;
  /** `app` for a bot user, `webhook` for a webhook post, `system` for platform messages. */
  badge: 'app' | 'webhook' | 'system' | undefined;
  /** The author's user id, if a user wrote it. */
  userId: string | undefined;
}

/**
 * Names the author of `message`: a webhook by its name, a user by display name, platform messages
 * as "System".
 *
 * @param message - the message.
 * @param users - every known user, by id.
 */
export function authorOf(message: Message, users: ReadonlyMap<string, UserProfile>): AuthorLabel {
  if (message.webhook_name !== null) return { name: message.webhook_name, badge: 'webhook', userId: undefined };
  if (message.author === null) return { name: 'System', badge: 'system', userId: undefined };
  const user = users.get(message.author);
  if (!user) return { name: 'Unknown user', badge: undefined, userId: message.author };
  return { name: user.display_name, badge: user.is_bot ? 'app' : undefined, userId: user.id };
}

/**
 * `sides: 20 · private: yes · who: @bob`, how an invocation's options read in a message list.
 *
 * @param options - the invocation's option values.
 * @param nameOf - names an id (`@bob`, `#general`) so `user` and `board` options read as names;
 *   `undefined` keeps the value as it is.
 */
export function describeOptions(
  options: Readonly<Record<string, OptionValue>>,
  nameOf: (id: string) => string | undefined = () => undefined,
): string {
  const show = (value: OptionValue) =>
    typeof value === 'boolean'
      ? value
        ? 'yes'
        : 'no'
      : typeof value === 'string'
        ? (nameOf(value) ?? value)
        : String(value);
  return Object.entries(options)
    .map(([name, value]) => `${name}: ${show(value)}`)
    .join(' · ');
}

/** A {@link describeOptions} namer for the platform's users (`@username`) and boards (`#name`). */
export function namerOf(
  users: ReadonlyMap<string, UserProfile>,
  boards: readonly { id: string; name: string }[],
): (id: string) => string | undefined {
  return (id) => {
    const user = users.get(id);
    if (user) return `@${user.username}`;
    const board = boards.find((b) => b.id === id);
    return board ? `#${board.name}` : undefined;
  };
}

/** The first characters of a message, for a reply's quote. */
export function snippet(message: Message, length = 80): string {
  if (message.deleted_at !== null) return 'Deleted message';
  const text = message.content ?? message.embeds?.[0]?.title ?? message.embeds?.[0]?.description ?? '';
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return message.embeds?.length ? 'Embed' : message.media ? 'Attachment' : '…';
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

/** The first letter of a name, for avatars. */
export function initial(name: string): string {
  return (Array.from(name.trim())[0] ?? '?').toUpperCase();
}

/** A stable hue (0..359) for a name, so each person keeps one avatar colour. */
export function hueOf(name: string): number {
  let h = 0;
  for (const c of name) h = (h * 31 + (c.codePointAt(0) ?? 0)) % 360;
  return h;
}

/** Whether `url` is safe to put in an `href` or `src`: only `http(s)` (the contract allows no other). */
export function isHttpUrl(url: string | undefined): url is string {
  return url !== undefined && /^https?:\/\//i.test(url);
}

/**
 * The file name an attachment's URL ends with, decoded for people (`a%20b.png` reads `a b.png`), or
 * `attachment` when it has none. Never throws: a URL is whatever a bot or a platform sent, and a
 * stray `%` (`100%.png`, `%zz`) is shown as it is instead of breaking the message list.
 *
 * @param url - the attachment's `http(s)` URL.
 */
export function mediaName(url: string): string {
  let last: string;
  try {
    last = new URL(url).pathname.split('/').pop() ?? '';
  } catch {
    return 'attachment';
  }
  // Each run of escapes on its own: a lone `%` or `%zz` stays as sent, the escapes around it are decoded.
  const name = last.replace(/(?:%[0-9a-f]{2})+/gi, (escapes) => {
    try {
      return decodeURIComponent(escapes);
    } catch {
      return escapes;
    }
  });
  return name || 'attachment';
}

/** `1.5 MB`, a byte count for people (decimal units, as file managers show them). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
