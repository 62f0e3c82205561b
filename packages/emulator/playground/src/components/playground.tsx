import type { ControlClient, EmulatorInfo } from '@boardbot/emulator/control';
import { useCallback, useMemo } from 'preact/hooks';
import { useBoardSelection } from '../hooks/use-board-selection.js';
import { usePerson } from '../hooks/use-person.js';
import { usePlayground } from '../hooks/use-playground.js';
import { BoardList } from './board-list.js';
import { BoardView } from './board-view.js';
import { ConnectionBadge } from './connection-badge.js';
import { PersonPicker } from './person-picker.js';

/** Props of {@link Playground}. */
export interface PlaygroundProps {
  client: ControlClient;
  info: EmulatorInfo;
  onUnauthorized(): void;
}

// CONTRACT: content ≤ 4000 characters, unless the emulator says otherwise in `GET /info`.
const DEFAULT_CONTENT_LENGTH = 4000;

/** The playground once the admin key is accepted: the top bar, the boards, and the board on screen. */
export function Playground({ client, info, onUnauthorized }: PlaygroundProps) {
  const [wanted, selectBoard] = useBoardSelection();
  const data = usePlayground(client, wanted, onUnauthorized);
  const { state, dispatch, boardId } = data;
  const people = useMemo(() => state.users.filter((u) => !u.is_bot), [state.users]);
  const users = useMemo(() => new Map(state.users.map((u) => [u.id, u])), [state.users]);
  const [person, choosePerson] = usePerson(people);
  const board = state.boards.find((b) => b.id === boardId);

  const createPerson = useCallback(
    async (username: string, displayName: string) => {
      const user = await client.createUser({ username, ...(displayName ? { display_name: displayName } : {}) });
      dispatch({ type: 'user.created', user });
      // A new person starts on the board on screen, so they can talk at once.
      if (boardId) {
        await client.setMember(boardId, user.id);
        dispatch({ type: 'members.loaded', boardId, members: await client.members(boardId) });
      }
      choosePerson(user);
    },
    [client, dispatch, boardId, choosePerson],
  );

  return (
    <div class="shell">
      <a class="skip-link" href="#composer-input">
        Skip to the composer
      </a>
      <header class="topbar">
        <h1 class="brand">
          boardbot <span>playground</span>
        </h1>
        <ConnectionBadge status={data.status} />
        <PersonPicker
          people={people}
          selected={person?.id}
          onSelect={(id) => {
            const user = people.find((p) => p.id === id);
            if (user) choosePerson(user);
          }}
          onCreate={createPerson}
        />
      </header>
      {data.loadError && (
        <p class="banner" role="alert">
          {data.loadError}
        </p>
      )}
      <BoardList boards={state.boards} apps={state.apps} selected={boardId} onSelect={selectBoard} />
      {board ? (
        <BoardView
          key={board.id}
          client={client}
          data={data}
          board={board}
          person={person}
          users={users}
          maxContentLength={info.limits.contentLength ?? DEFAULT_CONTENT_LENGTH}
        />
      ) : (
        <main class="board is-empty">
          <p class="empty">
            {state.boards.length === 0 && data.status === 'live'
              ? 'The platform has no boards. Load the seed (POST /_emulator/v1/seed) or create one with the control API.'
              : 'Loading…'}
          </p>
        </main>
      )}
    </div>
  );
}
