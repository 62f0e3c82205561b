import type { InteractionView } from '@boardbot/emulator/control';
import { describeOptions, hueOf, initial, longTime, shortTime } from '../format.js';

/** Props of {@link InteractionItem}. */
export interface InteractionItemProps {
  view: InteractionView;
  /** The app that registered the command, by name. */
  appName: string;
  /** The token expired without an answer. */
  unanswered: boolean;
  /** Names user and board ids among the options. */
  nameOf(id: string): string | undefined;
}

/**
 * An invoked command that has no answer yet: "Alice used /roll", then either a waiting note or,
 * once the interaction token expired (15 minutes), "the app did not answer".
 */
export function InteractionItem({ view, appName, unanswered, nameOf }: InteractionItemProps) {
  const { interaction } = view;
  const options = describeOptions(interaction.command.options, nameOf);
  const name = interaction.command.subcommand
    ? `${interaction.command.name} ${interaction.command.subcommand}`
    : interaction.command.name;
  return (
    <li
      class={`message is-interaction${unanswered ? ' is-unanswered' : ' is-pending'}`}
      data-interaction-id={interaction.id}
      data-status={unanswered ? 'unanswered' : 'pending'}
    >
      <span class="avatar" aria-hidden="true" style={{ '--hue': hueOf(interaction.user.display_name) }}>
        {initial(interaction.user.display_name)}
      </span>
      <div class="message-body">
        <p class="message-meta">
          <span class="author">{interaction.user.display_name}</span> used <span class="command-name">/{name}</span>
          {options !== '' && <span class="command-options"> {options}</span>}
          <time dateTime={interaction.created_at} title={longTime(interaction.created_at)}>
            {shortTime(interaction.created_at)}
          </time>
        </p>
        {unanswered ? (
          <p class="interaction-state is-unanswered">
            <span aria-hidden="true">⚠ </span>
            <strong>The app did not answer.</strong> The interaction token of {appName} expired at{' '}
            {shortTime(interaction.expires_at)} without a reply.
          </p>
        ) : (
          <p class="interaction-state is-pending">
            <span class="spinner" aria-hidden="true" />
            Waiting for {appName} to answer…
          </p>
        )}
      </div>
    </li>
  );
}
