import type { StreamStatus } from '@boardbot/emulator/control';

const LABELS: Record<StreamStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  unauthorized: 'Key refused',
};

/** Shows whether the page follows the emulator live; screen readers hear each change. */
export function ConnectionBadge({ status }: { status: StreamStatus }) {
  return (
    <p class={`badge-connection is-${status}`} role="status" data-status={status}>
      <span class="dot" aria-hidden="true" />
      {LABELS[status]}
    </p>
  );
}
