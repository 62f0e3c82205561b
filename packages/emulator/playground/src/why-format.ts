import type { WhyEvent } from '@boardbot/emulator/control';

/**
 * One line for the event a handler ran for: its id and name, and what it was about (the command,
 * or the start of the message).
 * @param event - the event as the app received it
 */
export function eventSummary(event: WhyEvent): string {
  const data = event.data as {
    interaction?: { command?: { name?: unknown } };
    message?: { content?: unknown };
  } | null;
  const command = data?.interaction?.command?.name;
  const content = data?.message?.content;
  const about =
    typeof command === 'string'
      ? ` /${command}`
      : typeof content === 'string'
        ? ` “${content.length > 40 ? `${content.slice(0, 39)}…` : content}”`
        : '';
  return `#${event.id} ${event.name}${about}`;
}

/**
 * One edit's text as the Why panel lists it: its length, and its end (where a streamed answer grew).
 * @param content - the content the edit set, or null when it set none
 */
export function editPreview(content: string | null): string {
  if (content === null) return '(no text)';
  const end = content.length > 60 ? `…${content.slice(-59)}` : content;
  return `${content.length} chars: ${end}`;
}
