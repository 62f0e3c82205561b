import {
  Board,
  BoardList,
  EditMessageBody,
  type ErrorCode,
  Member,
  MemberList,
  Message,
  MessageList,
  UserProfile,
} from '@boardbot/protocol';
import type { TObject, TSchema } from '@sinclair/typebox';
import {
  AppBoardParams,
  AppIdParams,
  BoardIdParams,
  BoardMessageParams,
  BoardUserParams,
  ControlListQuery,
  CreateAppBody,
  CreateBoardBody,
  CreateUserBody,
  IdParams,
  InteractionListQuery,
  InvokeBody,
  InvokeQuery,
  MemberBody,
  PersonMessageBody,
  RotateTokenBody,
  WaitQuery,
} from '../schemas/requests.js';
import {
  AppInfo,
  AppList,
  CreatedApp,
  EmulatorInfo,
  InteractionList,
  InteractionView,
  InvokedInteraction,
  PlatformState,
  UserList,
} from '../schemas/responses.js';
import { MessageWhy } from '../schemas/why.js';

/** One operation of the control API, as its OpenAPI document and its tests see it. */
export interface ControlOperation {
  /** HTTP method, lower case as OpenAPI writes it. */
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path template under `/_emulator/v1`. */
  path: string;
  /** The document's `operationId`. */
  operationId: string;
  /** One line for people. */
  summary: string;
  /** Path parameters: the very schema the route validates with. */
  params?: TObject;
  /** Query parameters: the very schema the route validates with (its `key` is the admin key). */
  query?: TObject;
  /** JSON body: the very schema the route validates with. */
  body?: TSchema;
  /** Whether the body may be left out. */
  bodyOptional?: boolean;
  /** Success status and the schema of its body (`null`: no body; `'event-stream'`: the activity stream). */
  success: { status: 200 | 201 | 204; schema: TSchema | null | 'event-stream' };
  /** The contract's error codes this operation answers beyond the common ones. */
  errors: readonly ErrorCode[];
}

const BODY_ERRORS = ['invalid_json', 'validation_failed', 'payload_too_large', 'unsupported_media_type'] as const;

/** Error codes every control operation can answer: the admin key, a bug, and a shutting-down emulator. */
export const COMMON_CONTROL_ERRORS: readonly ErrorCode[] = ['unauthorized', 'internal_error', 'unavailable'];

const ok = (schema: TSchema | null, status: 200 | 201 | 204 = schema === null ? 204 : 200) => ({ status, schema });

/** An operation as the table below states it: `route` is `method path`; `errors` defaults to none. */
type OperationRow = Omit<ControlOperation, 'method' | 'path' | 'errors'> & {
  route: `${ControlOperation['method']} /${string}`;
  errors?: readonly ErrorCode[];
};

// In the order of docs/control-api.md.
const ROWS: readonly OperationRow[] = [
  {
    route: 'get /info',
    operationId: 'getInfo',
    summary: 'Version, URLs and limits',
    success: ok(EmulatorInfo),
  },
  {
    route: 'get /state',
    operationId: 'getState',
    summary: 'Every person, board and app',
    success: ok(PlatformState),
  },
  {
    route: 'post /reset',
    operationId: 'reset',
    summary: 'Delete everything; end the open gateway streams',
    success: ok(null),
  },
  {
    route: 'post /seed',
    operationId: 'seed',
    summary: 'Load the default seed (idempotent)',
    success: ok(PlatformState),
    errors: ['validation_failed'],
  },
  {
    route: 'get /users',
    operationId: 'listUsers',
    summary: 'Every person and bot user',
    success: ok(UserList),
  },
  {
    route: 'post /users',
    operationId: 'createUser',
    summary: 'Create a person',
    body: CreateUserBody,
    success: ok(UserProfile, 201),
    errors: BODY_ERRORS,
  },
  {
    route: 'get /boards',
    operationId: 'listBoards',
    summary: 'Every board',
    success: ok(BoardList),
  },
  {
    route: 'post /boards',
    operationId: 'createBoard',
    summary: 'Create a board (no members yet)',
    body: CreateBoardBody,
    success: ok(Board, 201),
    errors: BODY_ERRORS,
  },
  {
    route: 'get /boards/{boardId}/members',
    operationId: 'listMembers',
    summary: "A board's members",
    params: BoardIdParams,
    success: ok(MemberList),
    errors: ['validation_failed', 'unknown_board'],
  },
  {
    route: 'put /boards/{boardId}/members/{userId}',
    operationId: 'setMember',
    summary: 'Add a person to a board, or change their role (the role `app` comes with an install)',
    params: BoardUserParams,
    body: MemberBody,
    bodyOptional: true,
    success: ok(Member),
    errors: [...BODY_ERRORS, 'unknown_board', 'unknown_user'],
  },
  {
    route: 'delete /boards/{boardId}/members/{userId}',
    operationId: 'removeMember',
    summary: 'Remove a member (also when it was not one)',
    params: BoardUserParams,
    success: ok(null),
    errors: ['validation_failed', 'unknown_board'],
  },
  {
    route: 'get /apps',
    operationId: 'listApps',
    summary: 'Every app, with its boards and commands',
    success: ok(AppList),
  },
  {
    route: 'post /apps',
    operationId: 'createApp',
    summary: 'Create an app and its bot user; the token is shown this once',
    body: CreateAppBody,
    success: ok(CreatedApp, 201),
    errors: BODY_ERRORS,
  },
  {
    route: 'post /apps/{appId}/token',
    operationId: 'rotateAppToken',
    summary:
      'Give an app a new token (generated unless one is chosen), shown this once; the old one stops working. The current token given again keeps it and has its strength judged',
    params: AppIdParams,
    body: RotateTokenBody,
    bodyOptional: true,
    success: ok(CreatedApp),
    errors: [...BODY_ERRORS, 'not_found'],
  },
  {
    route: 'put /apps/{appId}/installs/{boardId}',
    operationId: 'installApp',
    summary: 'Install an app on a board (its bot user joins with role `app`); an unknown app is `404 not_found`',
    params: AppBoardParams,
    success: ok(AppInfo),
    errors: ['validation_failed', 'not_found', 'unknown_board'],
  },
  {
    route: 'delete /apps/{appId}/installs/{boardId}',
    operationId: 'uninstallApp',
    summary: 'Remove an app from a board',
    params: AppBoardParams,
    success: ok(AppInfo),
    errors: ['validation_failed', 'not_found', 'unknown_board'],
  },
  {
    route: 'get /boards/{boardId}/messages',
    operationId: 'listMessages',
    summary: 'Messages, highest `seq` first, tombstones included',
    params: BoardIdParams,
    query: ControlListQuery,
    success: ok(MessageList),
    errors: ['validation_failed', 'unknown_board'],
  },
  {
    route: 'post /boards/{boardId}/messages',
    operationId: 'postMessage',
    summary: 'Post a message as a person (`user_id`, a member) or a webhook (`webhook_name`): exactly one',
    params: BoardIdParams,
    body: PersonMessageBody,
    success: ok(Message),
    errors: [...BODY_ERRORS, 'unknown_board', 'unknown_user'],
  },
  {
    route: 'patch /boards/{boardId}/messages/{messageId}',
    operationId: 'editMessage',
    summary: "Edit any author's message",
    params: BoardMessageParams,
    body: EditMessageBody,
    success: ok(Message),
    errors: [...BODY_ERRORS, 'unknown_board', 'unknown_message'],
  },
  {
    route: 'delete /boards/{boardId}/messages/{messageId}',
    operationId: 'deleteMessage',
    summary: 'Delete a message (idempotent)',
    params: BoardMessageParams,
    success: ok(null),
    errors: ['validation_failed', 'unknown_board', 'unknown_message'],
  },
  {
    route: 'get /boards/{boardId}/messages/{messageId}/why',
    operationId: 'whyMessage',
    summary: "What produced an app's message: its handler, event and REST calls, as the emulator saw them",
    params: BoardMessageParams,
    success: ok(MessageWhy),
    errors: ['validation_failed', 'unknown_message'],
  },
  {
    route: 'post /interactions',
    operationId: 'invokeCommand',
    summary:
      "A person invokes a slash command, checked against the app's registered options; with `answers` or `timeout_ms`, also waits for answers",
    query: InvokeQuery,
    body: InvokeBody,
    success: ok(InvokedInteraction, 201),
    errors: [...BODY_ERRORS, 'unknown_board', 'unknown_user'],
  },
  {
    route: 'get /interactions',
    operationId: 'listInteractions',
    summary: 'Interactions, newest first, with their answers',
    query: InteractionListQuery,
    success: ok(InteractionList),
    errors: ['validation_failed'],
  },
  {
    route: 'get /interactions/{id}',
    operationId: 'getInteraction',
    summary: 'An interaction with its status and answers',
    params: IdParams,
    success: ok(InteractionView),
    errors: ['validation_failed', 'unknown_interaction'],
  },
  {
    route: 'get /interactions/{id}/wait',
    operationId: 'waitForAnswers',
    summary: 'Wait until an interaction has `answers` answers, or `timeout_ms` passed',
    params: IdParams,
    query: WaitQuery,
    success: ok(InteractionView),
    errors: ['validation_failed', 'unknown_interaction'],
  },
  {
    route: 'get /events',
    operationId: 'openActivityStream',
    summary: 'The activity stream: everything that happens on the platform, without replay',
    success: { status: 200, schema: 'event-stream' },
  },
];

/** Every operation of the control API (docs/control-api.md), in the order of that page. */
export const CONTROL_OPERATIONS: readonly ControlOperation[] = ROWS.map(({ route, errors = [], ...rest }) => {
  const [method, path] = route.split(' ') as [ControlOperation['method'], string];
  return { method, path, errors, ...rest };
});
