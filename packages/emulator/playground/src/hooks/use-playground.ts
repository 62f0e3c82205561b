import {
  type ActivityEvent,
  type ControlClient,
  isUnauthorized,
  openActivityStream,
  type StreamStatus,
} from '@boardbot/emulator/control';
import { useCallback, useEffect, useReducer, useRef, useState } from 'preact/hooks';
import {
  EMPTY_STATE,
  type PlaygroundAction,
  type PlaygroundState,
  playgroundReducer,
} from '../state/playground-state.js';

/** How many messages and interactions one page of a board holds. */
export const PAGE_SIZE = 50;

/** The platform as the page sees it, kept live, and the loads the page can ask for. */
export interface PlaygroundData {
  state: PlaygroundState;
  /** The board on screen: the chosen one if it exists, else the first board. */
  boardId: string | undefined;
  dispatch: (action: PlaygroundAction) => void;
  /** The activity stream's status. */
  status: StreamStatus;
  /** The last failed load, for a banner; cleared by the next successful one. */
  loadError: string | undefined;
  /** Loads the latest messages, interactions and members of a board. */
  loadBoard(boardId: string): Promise<void>;
  /** Loads the page of messages before the oldest one loaded. */
  loadOlder(boardId: string): Promise<void>;
}

/**
 * Loads the platform through the control API and follows the activity stream. The stream does not
 * replay, so each `ready` (the first connection and every reconnection) reloads the state and the
 * board on screen; the reducer merges by id, so a reload racing a live event loses nothing.
 *
 * @param client - the control API client.
 * @param wantedBoardId - the board the person chose (it may not exist any more).
 * @param onUnauthorized - called when the emulator stops accepting the admin key.
 */
export function usePlayground(
  client: ControlClient,
  wantedBoardId: string | undefined,
  onUnauthorized: () => void,
): PlaygroundData {
  const [state, dispatch] = useReducer(playgroundReducer, EMPTY_STATE);
  const [status, setStatus] = useState<StreamStatus>('connecting');
  const [loadError, setLoadError] = useState<string | undefined>(undefined);
  const boardId = state.boards.some((b) => b.id === wantedBoardId) ? wantedBoardId : state.boards[0]?.id;
  const boardRef = useRef(boardId);
  boardRef.current = boardId;
  const unauthorizedRef = useRef(onUnauthorized);
  unauthorizedRef.current = onUnauthorized;
  const stateRef = useRef(state);
  stateRef.current = state;

  const guard = useCallback(async (load: () => Promise<void>) => {
    try {
      await load();
      setLoadError(undefined);
    } catch (error) {
      if (isUnauthorized(error)) unauthorizedRef.current();
      else setLoadError(error instanceof Error ? error.message : String(error));
    }
  }, []);

  const reloadState = useCallback(
    () => guard(async () => dispatch({ type: 'state.loaded', state: await client.state() })),
    [client, guard],
  );

  const reloadMembers = useCallback(
    (id: string) =>
      guard(async () => dispatch({ type: 'members.loaded', boardId: id, members: await client.members(id) })),
    [client, guard],
  );

  const loadBoard = useCallback(
    (id: string) =>
      guard(async () => {
        const [messages, interactions, members] = await Promise.all([
          client.messages(id, { limit: PAGE_SIZE }),
          client.interactions({ boardId: id, limit: PAGE_SIZE }),
          client.members(id),
        ]);
        const hasOlder = messages.length === PAGE_SIZE && (messages.at(-1)?.seq ?? 1) > 1;
        dispatch({ type: 'board.loaded', boardId: id, messages, interactions, members, hasOlder });
      }),
    [client, guard],
  );

  const loadOlder = useCallback(
    (id: string) =>
      guard(async () => {
        const seqs = Object.values(stateRef.current.messages[id] ?? {}).map((m) => m.seq);
        const before = seqs.length > 0 ? Math.min(...seqs) : undefined;
        if (before === undefined || before <= 1) return;
        const messages = await client.messages(id, { before, limit: PAGE_SIZE });
        const hasOlder = messages.length === PAGE_SIZE && (messages.at(-1)?.seq ?? 1) > 1;
        dispatch({ type: 'board.older', boardId: id, messages, hasOlder });
      }),
    [client, guard],
  );

  useEffect(() => {
    const onEvent = (event: ActivityEvent) => {
      dispatch({ type: 'event', event });
      const current = boardRef.current;
      switch (event.type) {
        case 'ready':
        case 'reset':
          void reloadState();
          if (current) void loadBoard(current);
          break;
        case 'state.update':
          if (event.what === 'members' && current) void reloadMembers(current);
          else void reloadState();
          break;
      }
    };
    const stream = openActivityStream({
      url: client.eventsUrl(),
      onEvent,
      onStatus: (next) => {
        setStatus(next);
        if (next === 'unauthorized') unauthorizedRef.current();
      },
      keyStillValid: async () => {
        try {
          await client.info();
          return true;
        } catch (error) {
          return !isUnauthorized(error);
        }
      },
    });
    return () => stream.close();
  }, [client, loadBoard, reloadMembers, reloadState]);

  useEffect(() => {
    void reloadState();
  }, [reloadState]);

  useEffect(() => {
    if (boardId) void loadBoard(boardId);
  }, [boardId, loadBoard]);

  return { state, boardId, dispatch, status, loadError, loadBoard, loadOlder };
}
