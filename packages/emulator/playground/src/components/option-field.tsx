import type { Board, Member } from '@boardbot/emulator/control';
import type { LeafOption } from '@boardbot/protocol';
import type { JSX } from 'preact';
import { boundsHint } from '../commands/check-options.js';

/** Props of {@link OptionField}. */
export interface OptionFieldProps {
  /** Prefix of element ids, unique per form. */
  idPrefix: string;
  option: LeafOption;
  value: string;
  error: string | undefined;
  /** Members of the board, for `user` options. */
  members: readonly Member[];
  boards: readonly Board[];
  onChange(value: string): void;
}

const TYPE_LABELS: Record<string, string> = {
  string: 'text',
  integer: 'whole number',
  number: 'number',
  boolean: 'yes or no',
  user: 'person',
  board: 'board',
};

/**
 * One option of a slash command as a labelled form control that fits its type: a list for choices,
 * people, boards and yes/no, a text box otherwise. The type, bounds and description read as its
 * hint; a problem reads beside it and marks it invalid.
 */
export function OptionField({ idPrefix, option, value, error, members, boards, onChange }: OptionFieldProps) {
  const id = `${idPrefix}-${option.name}`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const required = option.required === true;
  const bounds = boundsHint(option);
  const hint = [TYPE_LABELS[option.type] ?? option.type, bounds, option.description].filter(Boolean).join(' · ');
  const common = {
    id,
    name: option.name,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${errorId} ${hintId}` : hintId,
    'aria-required': required ? true : undefined,
  } as const;
  const empty = <option value="">{required ? 'Choose…' : '— not set —'}</option>;

  let control: JSX.Element;
  if (option.choices && option.choices.length > 0) {
    control = (
      <select {...common} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {empty}
        {option.choices.map((c) => (
          <option key={String(c.value)} value={String(c.value)}>
            {c.name}
          </option>
        ))}
      </select>
    );
  } else if (option.type === 'boolean') {
    control = (
      <select {...common} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {empty}
        <option value="true">Yes</option>
        <option value="false">No</option>
      </select>
    );
  } else if (option.type === 'user') {
    control = (
      <select {...common} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {empty}
        {members.map((m) => (
          <option key={m.user.id} value={m.user.id}>
            {m.user.display_name} (@{m.user.username})
          </option>
        ))}
      </select>
    );
  } else if (option.type === 'board') {
    control = (
      <select {...common} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {empty}
        {boards.map((b) => (
          <option key={b.id} value={b.id}>
            #{b.name}
          </option>
        ))}
      </select>
    );
  } else {
    const numeric = option.type === 'integer' || option.type === 'number';
    control = (
      <input
        {...common}
        type="text"
        inputMode={option.type === 'integer' ? 'numeric' : numeric ? 'decimal' : 'text'}
        autocomplete="off"
        spellcheck={!numeric}
        value={value}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
    );
  }

  return (
    <div class={`field${error ? ' is-invalid' : ''}`}>
      <label for={id}>
        {option.name}
        {required ? (
          <span class="required" title="required">
            {' '}
            *<span class="visually-hidden">(required)</span>
          </span>
        ) : (
          <span class="optional"> optional</span>
        )}
      </label>
      {control}
      <p class="field-hint" id={hintId}>
        {hint}
      </p>
      {error && (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
