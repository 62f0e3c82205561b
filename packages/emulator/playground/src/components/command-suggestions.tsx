/** One row of the suggestion list. */
export interface SuggestionRow {
  key: string;
  /** What the person would type: `/roll`, `!note add <text>`. */
  name: string;
  description: string;
  /** The app, named when several are installed. */
  app: string | undefined;
}

/** Props of {@link CommandSuggestions}. */
export interface CommandSuggestionsProps {
  id: string;
  /** The list's title, e.g. `Slash commands`. */
  title: string;
  rows: readonly SuggestionRow[];
  active: number;
  onPick(index: number): void;
}

/** The id of the suggestion row `index` of the listbox `listId`, for `aria-activedescendant`. */
export function suggestionId(listId: string, index: number): string {
  return `${listId}-${index}`;
}

/** The command list that opens above the composer when the person types `/` (or a text prefix, `!`). */
export function CommandSuggestions({ id, title, rows, active, onPick }: CommandSuggestionsProps) {
  return (
    <div class="suggestions">
      <p class="suggestions-title" id={`${id}-title`}>
        {rows.length === 0 ? 'No command matches' : title}
      </p>
      <div id={id} role="listbox" aria-labelledby={`${id}-title`}>
        {rows.map((row, i) => (
          <div
            key={row.key}
            id={suggestionId(id, i)}
            role="option"
            aria-selected={i === active}
            // The composer keeps the focus and points here with aria-activedescendant.
            tabIndex={-1}
            class={i === active ? 'is-active' : undefined}
            // mousedown, not click: picking must not blur the composer first.
            onMouseDown={(e) => {
              e.preventDefault();
              onPick(i);
            }}
          >
            <span class="command-name">{row.name}</span>
            <span class="command-description">{row.description}</span>
            {row.app !== undefined && <span class="tag is-app">{row.app}</span>}
          </div>
        ))}
      </div>
    </div>
  );
}
