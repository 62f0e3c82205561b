import type {
  ActivityEvent,
  AppInfo,
  Board,
  InteractionView,
  Member,
  Message,
  PlatformState,
  ShownInteraction,
  UserProfile,
} from '@boardbot/emulator/control';
import { laterInteraction, laterMessage, withAnswer } from './merge.js';

/** Everything the page knows, built from the control API's answers and its activity stream. */
export interface PlaygroundState {
  users: UserProfile[];
  boards: Board[];
  apps: AppInfo[];
  /** Messages by board id, then by message id (tombstones included). */
  messages: Record<string, Record<string, Message>>;
  /** Interactions by board id, then by interaction id. */
  interactions: Record<string, Record<string, InteractionView>>;
  /** Members by board id. */
  members: Record<string, Member[]>;
  /** Boards whose latest messages were loaded; `true` when older ones exist beyond them. */
  history: Record<string, { hasOlder: boolean }>;
}

/** What can happen to {@link PlaygroundState}. */
export type PlaygroundAction =
  | { type: 'state.loaded'; state: PlatformState }
  | {
      type: 'board.loaded';
      boardId: string;
      messages: Message[];
      interactions: InteractionView[];
      members: Member[];
      hasOlder: boolean;
    }
  | { type: 'board.older'; boardId: string; messages: Message[]; hasOlder: boolean }
  | { type: 'members.loaded'; boardId: string; members: Member[] }
  | { type: 'user.created'; user: UserProfile }
  | { type: 'message.stored'; message: Message }
  | { type: 'interaction.invoked'; interaction: ShownInteraction }
  | { type: 'event'; event: ActivityEvent };

/** The state before anything loaded. */
export const EMPTY_STATE: PlaygroundState = {
  users: [],
  boards: [],
  apps: [],
  messages: {},
  interactions: {},
  members: {},
  history: {},
};

function putMessages(state: PlaygroundState, messages: readonly Message[]): PlaygroundState {
  if (messages.length === 0) return state;
  const next = { ...state.messages };
  let interactions = state.interactions;
  for (const m of messages) {
    const board = { ...(next[m.board_id] ?? {}) };
    board[m.id] = laterMessage(board[m.id], m);
    next[m.board_id] = board;
    // An answer settles its interaction even before `interaction.update` arrives.
    const view = m.interaction ? interactions[m.board_id]?.[m.interaction.id] : undefined;
    if (view && m.interaction) {
      interactions = {
        ...interactions,
        [m.board_id]: { ...interactions[m.board_id], [m.interaction.id]: withAnswer(view, m) },
      };
    }
  }
  return { ...state, messages: next, interactions };
}

function putInteractions(state: PlaygroundState, views: readonly InteractionView[]): PlaygroundState {
  if (views.length === 0) return state;
  const next = { ...state.interactions };
  for (const v of views) {
    const boardId = v.interaction.board_id;
    const board = { ...(next[boardId] ?? {}) };
    board[v.interaction.id] = laterInteraction(board[v.interaction.id], v);
    next[boardId] = board;
  }
  return { ...state, interactions: next };
}

function applyEvent(state: PlaygroundState, event: ActivityEvent): PlaygroundState {
  switch (event.type) {
    case 'message.create':
    case 'message.edit':
    case 'message.delete':
      return putMessages(state, [event.message]);
    case 'interaction.create':
      return putInteractions(state, [{ interaction: event.interaction, status: 'pending', answers: [] }]);
    case 'interaction.update':
      return putInteractions(state, [event.interaction]);
    case 'commands.update':
      return {
        ...state,
        apps: state.apps.map((a) => (a.id === event.app_id ? { ...a, commands: event.commands } : a)),
      };
    case 'reset':
      return EMPTY_STATE;
    default:
      // `ready` and `state.update` change nothing by themselves: the page reloads what they name.
      return state;
  }
}

/** The page's reducer: pure, so the same answers and events always give the same page. */
export function playgroundReducer(state: PlaygroundState, action: PlaygroundAction): PlaygroundState {
  switch (action.type) {
    case 'state.loaded':
      return { ...state, users: action.state.users, boards: action.state.boards, apps: action.state.apps };
    case 'board.loaded': {
      const withMessages = putMessages(state, action.messages);
      const withInteractions = putInteractions(withMessages, action.interactions);
      return {
        ...withInteractions,
        members: { ...state.members, [action.boardId]: action.members },
        history: { ...state.history, [action.boardId]: { hasOlder: action.hasOlder } },
      };
    }
    case 'board.older':
      return {
        ...putMessages(state, action.messages),
        history: { ...state.history, [action.boardId]: { hasOlder: action.hasOlder } },
      };
    case 'members.loaded':
      return { ...state, members: { ...state.members, [action.boardId]: action.members } };
    case 'user.created':
      return state.users.some((u) => u.id === action.user.id)
        ? state
        : { ...state, users: [...state.users, action.user] };
    case 'message.stored':
      return putMessages(state, [action.message]);
    case 'interaction.invoked':
      return putInteractions(state, [{ interaction: action.interaction, status: 'pending', answers: [] }]);
    case 'event':
      return applyEvent(state, action.event);
  }
}
