import type { UserProfile } from '@boardbot/emulator/control';
import { useState } from 'preact/hooks';

const NEW_PERSON = '__new__';

/** Props of {@link PersonPicker}. */
export interface PersonPickerProps {
  people: readonly UserProfile[];
  selected: string | undefined;
  onSelect(userId: string): void;
  /** Creates a person; rejects with a message for people when the emulator refuses. */
  onCreate(username: string, displayName: string): Promise<void>;
}

/** Picks who the person at the keyboard is: alice, bob, anyone created since, or a new person. */
export function PersonPicker({ people, selected, onSelect, onCreate }: PersonPickerProps) {
  const [creating, setCreating] = useState(false);
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  if (creating) {
    return (
      <form
        class="person-new"
        aria-label="New person"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          try {
            await onCreate(username.trim(), displayName.trim());
            setCreating(false);
            setUsername('');
            setDisplayName('');
            setError(undefined);
          } catch (err) {
            setError(err instanceof Error ? err.message : String(err));
          } finally {
            setBusy(false);
          }
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setCreating(false);
        }}
      >
        <label>
          Username
          <input
            value={username}
            required
            pattern="[a-z0-9_.\-]{1,32}"
            placeholder="carol"
            autocomplete="off"
            // biome-ignore lint/a11y/noAutofocus: the person just asked for this form.
            autoFocus
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'person-new-error' : undefined}
            onInput={(e) => setUsername(e.currentTarget.value)}
          />
        </label>
        <label>
          Display name
          <input value={displayName} placeholder="Carol" onInput={(e) => setDisplayName(e.currentTarget.value)} />
        </label>
        <button type="submit" class="primary" disabled={busy || username.trim() === ''}>
          Create
        </button>
        <button type="button" onClick={() => setCreating(false)}>
          Cancel
        </button>
        {error && (
          <p id="person-new-error" class="field-error" role="alert">
            {error}
          </p>
        )}
      </form>
    );
  }

  return (
    <label class="person-picker">
      <span>You are</span>
      <select
        value={selected ?? ''}
        onChange={(e) => {
          const value = e.currentTarget.value;
          if (value === NEW_PERSON) {
            // Keep showing the current person until the new one exists.
            e.currentTarget.value = selected ?? '';
            setCreating(true);
          } else onSelect(value);
        }}
      >
        {people.map((p) => (
          <option key={p.id} value={p.id}>
            {p.display_name} (@{p.username})
          </option>
        ))}
        <option value={NEW_PERSON}>New person…</option>
      </select>
    </label>
  );
}
