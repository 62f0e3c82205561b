import { type Board, ControlApiError, type Member } from '@boardbot/emulator/control';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { AvailableCommand } from '../commands/available.js';
import {
  checkOptions,
  leafOptionsOf,
  placeServerErrors,
  SUBCOMMAND_FIELD,
  subcommandsOf,
} from '../commands/check-options.js';
import { OptionField } from './option-field.js';

/** What the form sends: the command, its subcommand and the typed option values. */
export interface Invocation {
  entry: AvailableCommand;
  subcommand: string | undefined;
  options: Record<string, string | number | boolean>;
}

/** Props of {@link CommandForm}. */
export interface CommandFormProps {
  entry: AvailableCommand;
  members: readonly Member[];
  boards: readonly Board[];
  /** Sends the invocation; rejects with the emulator's error when it refuses. */
  onInvoke(invocation: Invocation): Promise<void>;
  onClose(): void;
}

/**
 * The form of one slash command: a field per registered option (and a subcommand picker), checked
 * against the registration before sending; the emulator's `validation_failed` details land beside
 * the same fields. Escape closes it.
 */
export function CommandForm({ entry, members, boards, onInvoke, onClose }: CommandFormProps) {
  const { command } = entry;
  const subcommands = subcommandsOf(command);
  const [subcommand, setSubcommand] = useState<string | undefined>(subcommands[0]?.name);
  const [raw, setRaw] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const options = leafOptionsOf(command, subcommand);
  const idPrefix = `cmd-${command.name}`;

  useEffect(() => {
    form.current?.querySelector<HTMLElement>('input, select, button[type="submit"]')?.focus();
  }, []);

  const focusFirstError = (names: readonly string[]) => {
    const first = names[0];
    const id = first === SUBCOMMAND_FIELD ? `${idPrefix}-subcommand` : `${idPrefix}-${first}`;
    if (first !== undefined) form.current?.querySelector<HTMLElement>(`#${CSS.escape(id)}`)?.focus();
  };

  const submit = async () => {
    const checked = checkOptions(options, raw);
    const problems = Object.keys(checked.errors);
    setErrors(checked.errors);
    setFormErrors([]);
    if (problems.length > 0) {
      focusFirstError(options.map((o) => o.name).filter((n) => problems.includes(n)));
      return;
    }
    setBusy(true);
    try {
      await onInvoke({ entry, subcommand, options: checked.values });
    } catch (error) {
      if (error instanceof ControlApiError && error.details.length > 0) {
        const placed = placeServerErrors(
          error.details,
          options.map((o) => o.name),
        );
        setErrors(placed.fields);
        setFormErrors(placed.form);
        focusFirstError(Object.keys(placed.fields));
      } else {
        setFormErrors([error instanceof Error ? error.message : String(error)]);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      ref={form}
      class="command-form"
      aria-labelledby={`${idPrefix}-title`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <header class="command-form-head">
        <h2 id={`${idPrefix}-title`}>
          <span class="command-name">/{command.name}</span>
          <span class="command-description">{command.description}</span>
        </h2>
        <span class="tag is-app">{entry.app.name}</span>
      </header>
      {formErrors.length > 0 && (
        <div class="form-errors" role="alert">
          {formErrors.map((m) => (
            <p key={m} class="form-error">
              {m}
            </p>
          ))}
        </div>
      )}
      <div class="fields">
        {subcommands.length > 0 && (
          <div class={`field${errors[SUBCOMMAND_FIELD] ? ' is-invalid' : ''}`}>
            <label for={`${idPrefix}-subcommand`}>subcommand</label>
            <select
              id={`${idPrefix}-subcommand`}
              value={subcommand ?? ''}
              aria-invalid={errors[SUBCOMMAND_FIELD] ? true : undefined}
              aria-describedby={errors[SUBCOMMAND_FIELD] ? `${idPrefix}-subcommand-error` : undefined}
              onChange={(e) => {
                setSubcommand(e.currentTarget.value);
                setErrors({});
              }}
            >
              {subcommands.map((s) => (
                <option key={s.name} value={s.name}>
                  {s.name} — {s.description}
                </option>
              ))}
            </select>
            {errors[SUBCOMMAND_FIELD] && (
              <p class="field-error" id={`${idPrefix}-subcommand-error`}>
                {errors[SUBCOMMAND_FIELD]}
              </p>
            )}
          </div>
        )}
        {options.map((option) => (
          <OptionField
            key={`${subcommand ?? ''}/${option.name}`}
            idPrefix={idPrefix}
            option={option}
            value={raw[option.name] ?? ''}
            error={errors[option.name]}
            members={members}
            boards={boards}
            onChange={(value) => {
              setRaw((r) => ({ ...r, [option.name]: value }));
              if (errors[option.name]) setErrors(({ [option.name]: _, ...rest }) => rest);
            }}
          />
        ))}
        {options.length === 0 && <p class="field-hint">This command has no options.</p>}
      </div>
      <footer class="command-form-foot">
        <button type="submit" class="primary" disabled={busy}>
          Send /{command.name}
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <span class="hint">Enter to send · Escape to cancel</span>
      </footer>
    </form>
  );
}
