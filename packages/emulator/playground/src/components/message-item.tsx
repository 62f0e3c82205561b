import type { Message, MessageWhy } from '@boardbot/emulator/control';
import { useEffect, useRef, useState } from 'preact/hooks';
import { type AuthorLabel, hueOf, initial, longTime, shortTime, snippet } from '../format.js';
import { EmbedView } from './embed-view.js';
import { MediaView } from './media-view.js';
import { RichText } from './rich-text.js';
import { WhyPanel } from './why-panel.js';

/** Who used the command a message answers ("Alice used /roll"). */
export interface AnswerContext {
  userName: string;
  command: string;
  /** The invocation's options, formatted (`sides: 20`), or empty. */
  options: string;
}

/** Props of {@link MessageItem}. */
export interface MessageItemProps {
  message: Message;
  author: AuthorLabel;
  /** The message it replies to: the message, `missing` when not loaded, `undefined` for no reply. */
  replyTo: { message: Message; author: string } | 'missing' | undefined;
  answer: AnswerContext | undefined;
  /** Whether the person at the keyboard wrote it (edit and delete are offered then). */
  own: boolean;
  /** It follows a message of the same author: shown without repeating avatar and name. */
  continued: boolean;
  onReply(message: Message): void;
  onEdit(message: Message, content: string): Promise<void>;
  onDelete(message: Message): Promise<void>;
  /** Reads what produced the message; given for an app's messages, which offer "Why?". */
  onWhy?: ((message: Message) => Promise<MessageWhy>) | undefined;
}

/** One message: author, time, markers, the replied-to quote, content, embeds and the person's actions. */
export function MessageItem(props: MessageItemProps) {
  const { message, author, replyTo, answer, own, continued, onReply, onEdit, onDelete, onWhy } = props;
  const [editing, setEditing] = useState(false);
  const [explaining, setExplaining] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const deleted = message.deleted_at !== null;
  const errorId = `msg-error-${message.id}`;

  const run = async (action: () => Promise<void>) => {
    try {
      await action();
      setError(undefined);
      return true;
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return false;
    }
  };

  return (
    <li
      class={`message${deleted ? ' is-deleted' : ''}${own ? ' is-own' : ''}${continued ? ' is-continued' : ''}`}
      data-message-id={message.id}
      data-seq={message.seq}
      aria-labelledby={`msg-author-${message.id}`}
    >
      {continued ? (
        <time class="gutter-time" aria-hidden="true" dateTime={message.created_at}>
          {shortTime(message.created_at)}
        </time>
      ) : (
        <span class="avatar" aria-hidden="true" style={{ '--hue': hueOf(author.name) }}>
          {initial(author.name)}
        </span>
      )}
      <div class="message-body">
        {answer && (
          <p class="message-context is-command">
            <span class="context-who">{answer.userName}</span> used <span class="command-name">/{answer.command}</span>
            {answer.options !== '' && <span class="command-options"> {answer.options}</span>}
          </p>
        )}
        {replyTo && (
          <p class="message-context is-reply">
            <span aria-hidden="true">↪ </span>
            {replyTo === 'missing' ? (
              'Replying to an earlier message'
            ) : (
              <>
                Replying to <span class="context-who">{replyTo.author}</span>:{' '}
                <q class="reply-quote">{snippet(replyTo.message)}</q>
              </>
            )}
          </p>
        )}
        <p class={continued ? 'message-meta visually-hidden' : 'message-meta'}>
          <span class="author" id={`msg-author-${message.id}`}>
            {author.name}
          </span>
          {author.badge && <span class={`tag is-${author.badge}`}>{author.badge}</span>}
          <time dateTime={message.created_at} title={longTime(message.created_at)}>
            {shortTime(message.created_at)}
          </time>
        </p>
        {deleted ? (
          <p class="message-content is-tombstone">
            This message was deleted
            {message.deleted_at !== null && <span class="visually-hidden"> at {longTime(message.deleted_at)}</span>}.
          </p>
        ) : editing ? (
          <EditForm
            id={`edit-${message.id}`}
            initial={message.content ?? ''}
            onCancel={() => setEditing(false)}
            onSave={async (content) => {
              if (await run(() => onEdit(message, content))) setEditing(false);
            }}
          />
        ) : (
          <>
            {message.content !== null && message.content !== '' && (
              <p class="message-content">
                <RichText text={message.content} />
                {message.edited_at !== null && <EditedMarker at={message.edited_at} />}
              </p>
            )}
            {message.media && <MediaView media={message.media} />}
            {message.embeds?.map((embed, i) => (
              <EmbedView key={i} embed={embed} />
            ))}
            {message.edited_at !== null && !message.content && (
              <p class="message-content">
                <EditedMarker at={message.edited_at} />
              </p>
            )}
          </>
        )}
        {error && (
          <p class="field-error" id={errorId} role="alert">
            {error}
          </p>
        )}
        {explaining && onWhy && (
          <WhyPanel messageId={message.id} version={message.edited_at} load={() => onWhy(message)} />
        )}
      </div>
      {!deleted && !editing && (
        <div class="message-actions">
          <button type="button" onClick={() => onReply(message)}>
            Reply<span class="visually-hidden"> to {author.name}</span>
          </button>
          {onWhy && (
            <button
              type="button"
              aria-expanded={explaining}
              aria-controls={explaining ? `why-${message.id}` : undefined}
              onClick={() => setExplaining((open) => !open)}
            >
              Why?<span class="visually-hidden"> {author.name} answered this</span>
            </button>
          )}
          {own && !confirming && (
            <>
              <button type="button" onClick={() => setEditing(true)}>
                Edit
              </button>
              <button type="button" class="danger" onClick={() => setConfirming(true)}>
                Delete
              </button>
            </>
          )}
          {own && confirming && (
            <>
              <button
                type="button"
                class="danger is-solid"
                onClick={async () => {
                  await run(() => onDelete(message));
                  setConfirming(false);
                }}
              >
                Delete for everyone
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </>
          )}
        </div>
      )}
    </li>
  );
}

function EditedMarker({ at }: { at: string }) {
  return (
    <span class="marker" title={`Edited ${longTime(at)}`}>
      {' '}
      (edited)
    </span>
  );
}

function EditForm(props: { id: string; initial: string; onSave(content: string): Promise<void>; onCancel(): void }) {
  const [content, setContent] = useState(props.initial);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  return (
    <form
      class="edit-form"
      onSubmit={(e) => {
        e.preventDefault();
        void props.onSave(content);
      }}
    >
      <label class="visually-hidden" for={props.id}>
        Edit message
      </label>
      <textarea
        id={props.id}
        ref={ref}
        rows={2}
        value={content}
        onInput={(e) => setContent(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') props.onCancel();
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void props.onSave(content);
          }
        }}
      />
      <p class="edit-hint">
        <button type="submit" class="primary">
          Save
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <span class="hint">Enter to save · Escape to cancel</span>
      </p>
    </form>
  );
}
