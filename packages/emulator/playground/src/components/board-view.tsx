import type { Board, ControlClient, Message, UserProfile } from '@boardbot/emulator/control';
import { useMemo, useState } from 'preact/hooks';
import { commandsOnBoard } from '../commands/available.js';
import { authorOf } from '../format.js';
import { useClock } from '../hooks/use-clock.js';
import type { PlaygroundData } from '../hooks/use-playground.js';
import { buildTimeline, nextExpiry } from '../state/timeline.js';
import { CommandForm, type Invocation } from './command-form.js';
import { Composer } from './composer.js';
import { MessageList } from './message-list.js';

/** Props of {@link BoardView}. */
export interface BoardViewProps {
  client: ControlClient;
  data: PlaygroundData;
  board: Board;
  person: UserProfile | undefined;
  users: ReadonlyMap<string, UserProfile>;
  maxContentLength: number;
}

/** The selected board: its header, its live messages, and the composer or a command's form. */
export function BoardView({ client, data, board, person, users, maxContentLength }: BoardViewProps) {
  const { state, dispatch } = data;
  const [replyId, setReplyId] = useState<string | undefined>(undefined);
  const [picked, setPicked] = useState<{ appId: string; name: string } | undefined>(undefined);
  const [focusToken, setFocusToken] = useState(0);
  const messages = state.messages[board.id] ?? {};
  const interactions = state.interactions[board.id] ?? {};
  const members = state.members[board.id];
  const now = useClock(nextExpiry(interactions, Date.now()));
  const items = useMemo(() => buildTimeline(messages, interactions, now), [messages, interactions, now]);
  const commands = useMemo(() => commandsOnBoard(state.apps, board.id), [state.apps, board.id]);
  // The form follows the live registration: a `commands.update` changes its fields and bounds.
  const entry = picked && commands.find((c) => c.app.id === picked.appId && c.command.name === picked.name);
  const replyTarget = replyId ? messages[replyId] : undefined;
  const reply =
    replyTarget && replyTarget.deleted_at === null
      ? { message: replyTarget, author: authorOf(replyTarget, users).name }
      : undefined;
  const notMember = person !== undefined && members !== undefined && !members.some((m) => m.user.id === person.id);

  const requirePerson = (): UserProfile => {
    if (!person) throw new Error('Choose who you are first (top right).');
    return person;
  };

  const send = async (content: string) => {
    const user = requirePerson();
    const message = await client.postMessage(board.id, {
      user_id: user.id,
      content,
      ...(reply ? { replyTo: reply.message.id } : {}),
    });
    dispatch({ type: 'message.stored', message });
    setReplyId(undefined);
  };

  const invoke = async ({ entry: e, subcommand, options }: Invocation) => {
    const user = requirePerson();
    const interaction = await client.invoke({
      board_id: board.id,
      user_id: user.id,
      command: e.command.name,
      app_id: e.app.id,
      ...(subcommand !== undefined ? { subcommand } : {}),
      options,
    });
    dispatch({ type: 'interaction.invoked', interaction });
    setPicked(undefined);
    setFocusToken((n) => n + 1);
  };

  return (
    <main class="board" id="board" aria-labelledby="board-title">
      <header class="board-head">
        <h2 id="board-title">
          <span aria-hidden="true" class="hash">
            #
          </span>
          {board.name}
        </h2>
        {board.description && <p class="board-description">{board.description}</p>}
        <p class="board-count">
          {board.member_count} member{board.member_count === 1 ? '' : 's'}
        </p>
      </header>
      <MessageList
        boardName={board.name}
        items={items}
        messages={messages}
        interactions={interactions}
        users={users}
        apps={state.apps}
        boards={state.boards}
        personId={person?.id}
        loaded={state.history[board.id] !== undefined}
        hasOlder={state.history[board.id]?.hasOlder ?? false}
        onLoadOlder={() => void data.loadOlder(board.id)}
        onReply={(m: Message) => {
          setPicked(undefined);
          setReplyId(m.id);
          setFocusToken((n) => n + 1);
        }}
        onEdit={async (m, content) => {
          dispatch({ type: 'message.stored', message: await client.editMessage(board.id, m.id, content) });
        }}
        onDelete={(m) => client.deleteMessage(board.id, m.id)}
        onWhy={(m) => client.why(board.id, m.id)}
      />
      {entry ? (
        <CommandForm
          key={`${entry.app.id}/${entry.command.name}`}
          entry={entry}
          members={members ?? []}
          boards={state.boards}
          onInvoke={invoke}
          onClose={() => {
            setPicked(undefined);
            setFocusToken((n) => n + 1);
          }}
        />
      ) : (
        <Composer
          boardName={board.name}
          commands={commands}
          replyTo={reply}
          maxLength={maxContentLength}
          notMember={notMember}
          personName={person?.display_name ?? 'You'}
          focusToken={focusToken}
          onJoin={async () => {
            const user = requirePerson();
            await client.setMember(board.id, user.id);
            dispatch({ type: 'members.loaded', boardId: board.id, members: await client.members(board.id) });
          }}
          onCancelReply={() => setReplyId(undefined)}
          onSend={send}
          onPickCommand={(c) => {
            setReplyId(undefined);
            setPicked({ appId: c.app.id, name: c.command.name });
          }}
        />
      )}
    </main>
  );
}
