import type {
  App,
  Board,
  Command,
  ErrorDetail,
  Interaction,
  LIMITS,
  Member,
  Message,
  OptionValue,
  UserProfile,
} from '@boardbot/protocol';
import { ACTIVITY_EVENTS as EMULATOR_ACTIVITY_EVENTS } from '../../../src/activity-events.js';

// Records of the emulator's control API (docs/control-api.md). The app API's records come from
// @boardbot/protocol as types only, so nothing of the server-side schema code reaches the bundle.

/** An app as the control API shows it: the app record, where it is installed and its commands. */
export interface AppInfo extends App {
  /** Boards the app is installed on. */
  board_ids: string[];
  /** The app's registered slash commands. */
  commands: Command[];
}

/** An interaction as the control API shows it: never with its token (the token is the app's credential). */
export type InteractionRecord = Omit<Interaction, 'token'>;

/** Where an invoked command stands. */
export type InteractionStatus = 'pending' | 'answered' | 'expired';

/** An interaction with its answers (`GET /interactions/{id}`, `interaction.update`). */
export interface InteractionView {
  interaction: InteractionRecord;
  status: InteractionStatus;
  answers: Message[];
}

/** `GET /state`: everything the side bar and the pickers need. */
export interface PlatformState {
  users: UserProfile[];
  boards: Board[];
  apps: AppInfo[];
}

/** `GET /info`. `limits` are the emulator's configured limits (the contract's defaults unless changed). */
export interface EmulatorInfo {
  version: string;
  api_url: string;
  playground_url: string;
  limits: Partial<Record<keyof typeof LIMITS, number>>;
}

/** Body of `POST /boards/{boardId}/messages` as a person. */
export interface PersonMessageBody {
  user_id: string;
  content: string;
  replyTo?: string;
}

/** Body of `POST /interactions`: a person invokes a registered slash command. */
export interface InvokeBody {
  board_id: string;
  user_id: string;
  command: string;
  app_id: string;
  subcommand?: string;
  options: Record<string, OptionValue>;
}

/** Names of the activity stream's events mapped to their payloads (`GET /events`). */
export interface ActivityEventMap {
  ready: { type: 'ready' };
  'message.create': { type: 'message.create'; message: Message };
  'message.edit': { type: 'message.edit'; message: Message };
  'message.delete': { type: 'message.delete'; message: Message };
  'interaction.create': { type: 'interaction.create'; interaction: InteractionRecord };
  'interaction.update': { type: 'interaction.update'; interaction: InteractionView };
  'commands.update': { type: 'commands.update'; app_id: string; commands: Command[] };
  'state.update': { type: 'state.update'; what: 'users' | 'boards' | 'apps' | 'members' };
  reset: { type: 'reset' };
}

/** A known activity event name. */
export type ActivityEventName = keyof ActivityEventMap;

/** Any activity event payload. */
export type ActivityEvent = ActivityEventMap[ActivityEventName];

/**
 * Every activity event name, as sent in the frames' `event:` field: the emulator's own list (the
 * assignment fails to compile if the emulator emits a name this page has no payload type for).
 */
export const ACTIVITY_EVENTS: readonly ActivityEventName[] = EMULATOR_ACTIVITY_EVENTS;

export type { App, Board, Command, ErrorDetail, Member, Message, OptionValue, UserProfile };
