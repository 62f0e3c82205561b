import type { AvailableCommand } from '../commands/available.js';

/** Props of {@link CommandSuggestions}. */
export interface CommandSuggestionsProps {
  id: string;
  matches: readonly AvailableCommand[];
  active: number;
  /** Whether several apps are installed, so each row names its app. */
  showApp: boolean;
  onPick(entry: AvailableCommand): void;
}

/** The id of the suggestion row `index` of the listbox `listId`, for `aria-activedescendant`. */
export function suggestionId(listId: string, index: number): string {
  return `${listId}-${index}`;
}

/** The slash-command list that opens above the composer when the person types `/`. */
export function CommandSuggestions({ id, matches, active, showApp, onPick }: CommandSuggestionsProps) {
  return (
    <div class="suggestions">
      <p class="suggestions-title" id={`${id}-title`}>
        {matches.length === 0 ? 'No command matches' : 'Slash commands'}
      </p>
      <div id={id} role="listbox" aria-labelledby={`${id}-title`}>
        {matches.map((entry, i) => (
          <div
            key={`${entry.app.id}/${entry.command.name}`}
            id={suggestionId(id, i)}
            role="option"
            aria-selected={i === active}
            // The composer keeps the focus and points here with aria-activedescendant.
            tabIndex={-1}
            class={i === active ? 'is-active' : undefined}
            // mousedown, not click: picking must not blur the composer first.
            onMouseDown={(e) => {
              e.preventDefault();
              onPick(entry);
            }}
          >
            <span class="command-name">/{entry.command.name}</span>
            <span class="command-description">{entry.command.description}</span>
            {showApp && <span class="tag is-app">{entry.app.name}</span>}
          </div>
        ))}
      </div>
    </div>
  );
}
