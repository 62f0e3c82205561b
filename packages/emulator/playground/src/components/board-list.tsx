import type { AppInfo, Board } from '@boardbot/emulator/control';

/** Props of {@link BoardList}. */
export interface BoardListProps {
  boards: readonly Board[];
  apps: readonly AppInfo[];
  selected: string | undefined;
  onSelect(boardId: string): void;
}

/** The side bar: every board (the selected one marked as current) and the apps of the selected board. */
export function BoardList({ boards, apps, selected, onSelect }: BoardListProps) {
  const installed = apps.filter((a) => selected !== undefined && a.board_ids.includes(selected));
  return (
    <nav class="sidebar" aria-label="Boards">
      <h2 class="sidebar-title">Boards</h2>
      <ul class="board-list">
        {boards.map((b) => (
          <li key={b.id}>
            <a
              href={`#board=${b.id}`}
              class="board-link"
              aria-current={b.id === selected ? 'page' : undefined}
              onClick={(e) => {
                e.preventDefault();
                onSelect(b.id);
              }}
            >
              <span aria-hidden="true" class="hash">
                #
              </span>
              {b.name}
            </a>
          </li>
        ))}
      </ul>
      {installed.length > 0 && (
        <section class="sidebar-apps" aria-label="Apps on this board">
          <h2 class="sidebar-title">Apps here</h2>
          <ul>
            {installed.map((a) => (
              <li key={a.id}>
                <span class="app-name">{a.name}</span>
                <span class="app-commands">
                  {a.commands.length === 0 ? 'no commands yet' : a.commands.map((c) => `/${c.name}`).join(' ')}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </nav>
  );
}
