import type { Message } from '@boardbot/emulator/control';
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  type AvailableCommand,
  matchCommands,
  matchTextCommands,
  TEXT_PREFIX,
  type TextSuggestion,
} from '../commands/available.js';
import { snippet } from '../format.js';
import { CommandSuggestions, type SuggestionRow, suggestionId } from './command-suggestions.js';

/** Props of {@link Composer}. */
export interface ComposerProps {
  boardName: string;
  commands: readonly AvailableCommand[];
  replyTo: { message: Message; author: string } | undefined;
  /** Longest content the emulator accepts. */
  maxLength: number;
  /** The person is not a member of the board: offer to join instead of a failing send. */
  notMember: boolean;
  personName: string;
  onJoin(): Promise<void>;
  onCancelReply(): void;
  onSend(content: string): Promise<void>;
  onPickCommand(entry: AvailableCommand): void;
  /** Changes whenever something asks the composer to take the focus (a reply was chosen). */
  focusToken: number;
}

const LIST_ID = 'command-suggestions';

/** What the open suggestion list offers: slash commands (a pick opens the form), or text commands. */
type Suggestions =
  | { kind: 'slash'; matches: AvailableCommand[] }
  | { kind: 'text'; matches: TextSuggestion[] }
  | undefined;

/**
 * Writes messages and replies (Enter sends, Shift+Enter breaks the line) and opens the command
 * picker: typing `/` lists the board's commands, arrows move, Enter or Tab picks, Escape closes.
 * Typing `!` lists them as text commands (`!roll`, `!note add`): a pick writes the name into the
 * message, for the person to add the arguments and send.
 */
export function Composer(props: ComposerProps) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const suggestions = suggest(props.commands, text);
  const open = suggestions !== undefined;
  const matches = suggestions?.matches ?? [];
  const several = new Set(props.commands.map((c) => c.app.id)).size > 1;
  const tooLong = text.length > props.maxLength;

  useEffect(() => {
    if (props.focusToken > 0) input.current?.focus();
  }, [props.focusToken]);

  const pick = (index: number) => {
    setActive(0);
    if (suggestions?.kind === 'text') {
      const entry = suggestions.matches[index];
      if (entry) setText(`${TEXT_PREFIX}${entry.typed} `);
      input.current?.focus();
      return;
    }
    const entry = suggestions?.matches[index];
    if (!entry) return;
    setText('');
    props.onPickCommand(entry);
  };

  const send = async () => {
    const content = text;
    if (content.trim() === '' || busy) return;
    if (tooLong) {
      setError(`A message holds at most ${props.maxLength} characters.`);
      return;
    }
    setBusy(true);
    try {
      await props.onSend(content);
      setText('');
      setError(undefined);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
      input.current?.focus();
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (open && matches.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setActive((i) => (i + step + matches.length) % matches.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        pick(Math.min(active, matches.length - 1));
        return;
      }
    }
    if (open && e.key === 'Escape') {
      e.preventDefault();
      setText('');
      return;
    }
    if (e.key === 'Escape' && props.replyTo) {
      props.onCancelReply();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  if (props.notMember) {
    return (
      <div class="composer is-join">
        <p>
          {props.personName} is not a member of #{props.boardName}.
        </p>
        <button type="button" class="primary" onClick={() => void props.onJoin().catch((e) => setError(String(e)))}>
          Join #{props.boardName}
        </button>
        {error && (
          <p class="field-error" role="alert">
            {error}
          </p>
        )}
      </div>
    );
  }

  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      {open && (
        <CommandSuggestions
          id={LIST_ID}
          title={suggestions.kind === 'slash' ? 'Slash commands' : 'Text commands (for bots that take them)'}
          rows={rowsOf(suggestions, several)}
          active={Math.min(active, Math.max(0, matches.length - 1))}
          onPick={pick}
        />
      )}
      {props.replyTo && (
        <p class="reply-banner">
          <span>
            Replying to <strong>{props.replyTo.author}</strong>:{' '}
            <q class="reply-quote">{snippet(props.replyTo.message, 60)}</q>
          </span>
          <button type="button" class="icon" aria-label="Cancel the reply" onClick={props.onCancelReply}>
            ×
          </button>
        </p>
      )}
      <div class="composer-row">
        <button
          type="button"
          class="icon command-button"
          aria-label="Slash commands"
          title="Slash commands"
          aria-expanded={open}
          aria-controls={open ? LIST_ID : undefined}
          onClick={() => {
            setText(open ? '' : '/');
            setActive(0);
            input.current?.focus();
          }}
        >
          /
        </button>
        <label class="visually-hidden" for="composer-input">
          {props.replyTo ? `Reply in #${props.boardName}` : `Message #${props.boardName}`}
        </label>
        <textarea
          id="composer-input"
          ref={input}
          rows={1}
          value={text}
          placeholder={`Message #${props.boardName} — type / or ${TEXT_PREFIX} for commands`}
          // A textarea keeps its textbox role; these still tie it to the suggestion list.
          aria-autocomplete="list"
          aria-controls={open ? LIST_ID : undefined}
          aria-activedescendant={open && matches.length > 0 ? suggestionId(LIST_ID, active) : undefined}
          aria-invalid={error || tooLong ? true : undefined}
          aria-describedby={error ? 'composer-error' : undefined}
          onInput={(e) => {
            setText(e.currentTarget.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <button type="submit" class="primary" disabled={busy || text.trim() === '' || (open && matches.length > 0)}>
          Send
        </button>
      </div>
      {(error || text.length > props.maxLength * 0.9) && (
        <p class="composer-foot">
          {error && (
            <span class="field-error" id="composer-error" role="alert">
              {error}
            </span>
          )}
          {text.length > props.maxLength * 0.9 && (
            <span class={tooLong ? 'counter is-over' : 'counter'}>
              {text.length} / {props.maxLength}
            </span>
          )}
        </p>
      )}
    </form>
  );
}

/** The slash commands `text` is typing, else the text commands, else none. */
function suggest(commands: readonly AvailableCommand[], text: string): Suggestions {
  const slash = matchCommands(commands, text);
  if (slash) return { kind: 'slash', matches: slash };
  const typed = matchTextCommands(commands, text);
  return typed ? { kind: 'text', matches: typed } : undefined;
}

function rowsOf(suggestions: NonNullable<Suggestions>, several: boolean): SuggestionRow[] {
  if (suggestions.kind === 'slash') {
    return suggestions.matches.map(({ app, command }) => ({
      key: `${app.id}/${command.name}`,
      name: `/${command.name}`,
      description: command.description,
      app: several ? app.name : undefined,
    }));
  }
  return suggestions.matches.map((s) => ({
    key: `${s.app.id}/${s.typed}`,
    name: `${TEXT_PREFIX}${[s.typed, s.usage].filter(Boolean).join(' ')}`,
    description: s.description,
    app: several ? s.app.name : undefined,
  }));
}
