import type { ErrorCode } from '../errors.js';

/** One endpoint of the app API, as the OpenAPI document and the tests see it. */
export interface EndpointSpec {
  /** Number in SPEC.md section 4. */
  n: number;
  method: 'get' | 'post' | 'patch' | 'delete' | 'put';
  /** OpenAPI path template, relative to `/api/v1`. */
  path: string;
  operationId: string;
  summary: string;
  /** Whether the bearer app token is required (false only for endpoint 12). */
  auth: boolean;
  params: readonly ('boardId' | 'messageId' | 'userId' | 'token' | 'before' | 'limit' | 'idempotencyKey')[];
  /** Component name of the JSON request body, if any. */
  body?: string;
  /** Success status and the component name of its body (null for no body). */
  success: { status: 200 | 204; schema: string | null };
  /** Error codes this endpoint can answer beyond the common ones. */
  errors: readonly ErrorCode[];
}

const BODY_ERRORS = ['invalid_json', 'validation_failed', 'payload_too_large', 'unsupported_media_type'] as const;
const IDEMPOTENCY_ERRORS = ['idempotency_in_progress', 'idempotency_key_reused'] as const;

/** The 13 endpoints of CONTRACT.md "Endpoints". */
export const ENDPOINTS: readonly EndpointSpec[] = [
  {
    n: 1,
    method: 'get',
    path: '/boards',
    operationId: 'listBoards',
    summary: 'List the boards the app is installed on',
    auth: true,
    params: [],
    success: { status: 200, schema: 'BoardList' },
    errors: [],
  },
  {
    n: 2,
    method: 'get',
    path: '/boards/{boardId}',
    operationId: 'getBoard',
    summary: 'Read one board',
    auth: true,
    params: ['boardId'],
    success: { status: 200, schema: 'Board' },
    errors: ['validation_failed', 'unknown_board'],
  },
  {
    n: 3,
    method: 'get',
    path: '/boards/{boardId}/members',
    operationId: 'listMembers',
    summary: "List a board's members",
    auth: true,
    params: ['boardId'],
    success: { status: 200, schema: 'MemberList' },
    errors: ['validation_failed', 'unknown_board'],
  },
  {
    n: 4,
    method: 'get',
    path: '/boards/{boardId}/messages',
    operationId: 'listMessages',
    summary: 'List messages, highest seq first, with cursor paging',
    auth: true,
    params: ['boardId', 'before', 'limit'],
    success: { status: 200, schema: 'MessageList' },
    errors: ['validation_failed', 'unknown_board'],
  },
  {
    n: 5,
    method: 'post',
    path: '/boards/{boardId}/messages',
    operationId: 'sendMessage',
    summary: 'Send a message as the app',
    auth: true,
    params: ['boardId', 'idempotencyKey'],
    body: 'SendMessageBody',
    success: { status: 200, schema: 'Message' },
    errors: [...BODY_ERRORS, 'unknown_board', ...IDEMPOTENCY_ERRORS],
  },
  {
    n: 6,
    method: 'patch',
    path: '/boards/{boardId}/messages/{messageId}',
    operationId: 'editMessage',
    summary: "Edit the app's own message",
    auth: true,
    params: ['boardId', 'messageId', 'idempotencyKey'],
    body: 'EditMessageBody',
    success: { status: 200, schema: 'Message' },
    errors: [...BODY_ERRORS, 'forbidden', 'unknown_board', 'unknown_message', ...IDEMPOTENCY_ERRORS],
  },
  {
    n: 7,
    method: 'delete',
    path: '/boards/{boardId}/messages/{messageId}',
    operationId: 'deleteMessage',
    summary: "Delete the app's own message (idempotent)",
    auth: true,
    params: ['boardId', 'messageId'],
    success: { status: 204, schema: null },
    errors: ['validation_failed', 'forbidden', 'unknown_board', 'unknown_message'],
  },
  {
    n: 8,
    method: 'get',
    path: '/users/{userId}',
    operationId: 'getUser',
    summary: "Read a user's public profile",
    auth: true,
    params: ['userId'],
    success: { status: 200, schema: 'UserProfile' },
    errors: ['validation_failed', 'unknown_user'],
  },
  {
    n: 9,
    method: 'get',
    path: '/app',
    operationId: 'getApp',
    summary: 'Read the app the token belongs to',
    auth: true,
    params: [],
    success: { status: 200, schema: 'App' },
    errors: [],
  },
  {
    n: 10,
    method: 'get',
    path: '/app/commands',
    operationId: 'listCommands',
    summary: "List the app's registered slash commands",
    auth: true,
    params: [],
    success: { status: 200, schema: 'CommandList' },
    errors: [],
  },
  {
    n: 11,
    method: 'put',
    path: '/app/commands',
    operationId: 'replaceCommands',
    summary: "Replace the app's whole command set",
    auth: true,
    params: [],
    body: 'ReplaceCommandsBody',
    success: { status: 200, schema: 'CommandList' },
    errors: [...BODY_ERRORS],
  },
  {
    n: 12,
    method: 'post',
    path: '/interactions/{token}',
    operationId: 'answerInteraction',
    summary: 'Answer an interaction (reply, then follow-ups); the token is the credential',
    auth: false,
    params: ['token', 'idempotencyKey'],
    body: 'InteractionResponseBody',
    success: { status: 200, schema: 'Message' },
    errors: [
      ...BODY_ERRORS,
      'unknown_interaction',
      'interaction_expired',
      'interaction_exhausted',
      ...IDEMPOTENCY_ERRORS,
    ],
  },
  {
    n: 13,
    method: 'get',
    path: '/gateway',
    operationId: 'openGateway',
    summary: 'Open the server-sent event stream of activity on the app’s boards',
    auth: true,
    params: [],
    success: { status: 200, schema: null },
    errors: [],
  },
];

/**
 * Error codes every endpoint can answer: its credential's refusal, the rate limit, the server's own
 * failures, and the refusals of the HTTP layer (a malformed or misdirected request, a slow one, a
 * head over the size limit), which come before any route is known.
 */
export function commonErrors(e: EndpointSpec): ErrorCode[] {
  return [
    'bad_request',
    ...(e.auth ? (['unauthorized'] as const) : []),
    'request_timeout',
    'headers_too_large',
    'rate_limited',
    'internal_error',
    'unavailable',
  ];
}
