import type { AppInfo, Board, InteractionView, Message, MessageWhy, UserProfile } from '@boardbot/emulator/control';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { authorOf, describeOptions, namerOf } from '../format.js';
import type { TimelineItem } from '../state/timeline.js';
import { InteractionItem } from './interaction-item.js';
import { type AnswerContext, MessageItem } from './message-item.js';

/** Props of {@link MessageList}. */
export interface MessageListProps {
  boardName: string;
  items: readonly TimelineItem[];
  messages: Readonly<Record<string, Message>>;
  interactions: Readonly<Record<string, InteractionView>>;
  users: ReadonlyMap<string, UserProfile>;
  apps: readonly AppInfo[];
  boards: readonly Board[];
  personId: string | undefined;
  loaded: boolean;
  hasOlder: boolean;
  onLoadOlder(): void;
  onReply(message: Message): void;
  onEdit(message: Message, content: string): Promise<void>;
  onDelete(message: Message): Promise<void>;
  /** Reads what produced an app's message (offered as "Why?" beside each). */
  onWhy(message: Message): Promise<MessageWhy>;
}

// Within this distance of the bottom, new messages keep the list scrolled to the end.
const STICKY_PX = 120;
// Messages of one author this close together read as one group, without repeating the name.
const GROUP_MS = 5 * 60 * 1000;

function authorKey(m: Message): string {
  return m.webhook_name !== null ? `webhook:${m.webhook_name}` : `user:${m.author ?? ''}`;
}

/** Whether `item` continues the group of `previous`: same author, soon after, nothing to introduce. */
function continues(previous: TimelineItem | undefined, item: TimelineItem): boolean {
  if (previous?.kind !== 'message' || item.kind !== 'message') return false;
  const [a, b] = [previous.message, item.message];
  return (
    authorKey(a) === authorKey(b) &&
    b.reply_to === null &&
    b.interaction === null &&
    a.interaction === null &&
    Date.parse(b.created_at) - Date.parse(a.created_at) < GROUP_MS
  );
}

/** The selected board's messages and waiting commands, live, kept scrolled to the newest. */
export function MessageList(props: MessageListProps) {
  const { items, messages, interactions, users, apps } = props;
  const nameOf = namerOf(users, props.boards);
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const last = items.at(-1)?.key;

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [last, items.length]);

  // A narrower window wraps lines and grows the list: stay at the end if the person was there.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    const list = el.querySelector('ol');
    if (list) observer.observe(list);
    return () => observer.disconnect();
  }, []);

  const answerOf = (m: Message): AnswerContext | undefined => {
    if (!m.interaction) return undefined;
    const view = interactions[m.interaction.id];
    const user = users.get(m.interaction.user_id) ?? view?.interaction.user;
    return {
      userName: user?.display_name ?? 'Someone',
      command: view?.interaction.command.subcommand
        ? `${m.interaction.name} ${view.interaction.command.subcommand}`
        : m.interaction.name,
      options: view ? describeOptions(view.interaction.command.options, nameOf) : '',
    };
  };

  const replyOf = (m: Message) => {
    if (m.reply_to === null) return undefined;
    const target = messages[m.reply_to];
    return target ? { message: target, author: authorOf(target, users).name } : ('missing' as const);
  };

  return (
    <div
      class="scroller"
      ref={scroller}
      role="log"
      aria-label={`Messages in #${props.boardName}`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICKY_PX;
      }}
    >
      {props.hasOlder && (
        <p class="older">
          <button type="button" onClick={props.onLoadOlder}>
            Load earlier messages
          </button>
        </p>
      )}
      {props.loaded && items.length === 0 && (
        <p class="empty">No messages in #{props.boardName} yet. Say hello, or type / for the app’s commands.</p>
      )}
      {!props.loaded && <p class="empty">Loading #{props.boardName}…</p>}
      <ol class="messages">
        {items.map((item, i) =>
          item.kind === 'message' ? (
            <MessageItem
              key={item.key}
              message={item.message}
              author={authorOf(item.message, users)}
              replyTo={replyOf(item.message)}
              answer={answerOf(item.message)}
              own={props.personId !== undefined && item.message.author === props.personId}
              continued={continues(items[i - 1], item)}
              onReply={props.onReply}
              onEdit={props.onEdit}
              onDelete={props.onDelete}
              onWhy={authorOf(item.message, users).badge === 'app' ? props.onWhy : undefined}
            />
          ) : (
            <InteractionItem
              key={item.key}
              view={item.view}
              nameOf={nameOf}
              unanswered={item.unanswered}
              appName={apps.find((a) => a.id === item.view.interaction.app_id)?.name ?? 'The app'}
            />
          ),
        )}
      </ol>
    </div>
  );
}
