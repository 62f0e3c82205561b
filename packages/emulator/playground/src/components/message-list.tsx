import { useLayoutEffect, useRef } from 'preact/hooks';
import type { AppInfo, InteractionView, Message, UserProfile } from '../api/types.js';
import { authorOf, describeOptions } from '../format.js';
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
  personId: string | undefined;
  loaded: boolean;
  hasOlder: boolean;
  onLoadOlder(): void;
  onReply(message: Message): void;
  onEdit(message: Message, content: string): Promise<void>;
  onDelete(message: Message): Promise<void>;
}

// Within this distance of the bottom, new messages keep the list scrolled to the end.
const STICKY_PX = 120;

/** The selected board's messages and waiting commands, live, kept scrolled to the newest. */
export function MessageList(props: MessageListProps) {
  const { items, messages, interactions, users, apps } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const last = items.at(-1)?.key;

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [last, items.length]);

  const answerOf = (m: Message): AnswerContext | undefined => {
    if (!m.interaction) return undefined;
    const view = interactions[m.interaction.id];
    const user = users.get(m.interaction.user_id) ?? view?.interaction.user;
    return {
      userName: user?.display_name ?? 'Someone',
      command: view?.interaction.command.subcommand
        ? `${m.interaction.name} ${view.interaction.command.subcommand}`
        : m.interaction.name,
      options: view ? describeOptions(view.interaction.command.options) : '',
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
        {items.map((item) =>
          item.kind === 'message' ? (
            <MessageItem
              key={item.key}
              message={item.message}
              author={authorOf(item.message, users)}
              replyTo={replyOf(item.message)}
              answer={answerOf(item.message)}
              own={props.personId !== undefined && item.message.author === props.personId}
              onReply={props.onReply}
              onEdit={props.onEdit}
              onDelete={props.onDelete}
            />
          ) : (
            <InteractionItem
              key={item.key}
              view={item.view}
              unanswered={item.unanswered}
              appName={apps.find((a) => a.id === item.view.interaction.app_id)?.name ?? 'The app'}
            />
          ),
        )}
      </ol>
    </div>
  );
}
