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

/** An endpoint as the table below states it: `route` is `method path`; most need the bearer token. */
type EndpointRow = Omit<EndpointSpec, 'n' | 'method' | 'path' | 'auth' | 'params' | 'errors'> & {
  route: `${EndpointSpec['method']} /${string}`;
  auth?: false;
  params?: EndpointSpec['params'];
  errors?: EndpointSpec['errors'];
};

// In the contract's order: endpoint `n` is the `n`-th row.
const ROWS: readonly EndpointRow[] = [
  {
    route: 'get /boards',
    operationId: 'listBoards',
    summary: 'List the boards the app is installed on',
    success: { status: 200, schema: 'BoardList' },
  },
  {
    route: 'get /boards/{boardId}',
    operationId: 'getBoard',
    summary: 'Read one board',
    params: ['boardId'],
    success: { status: 200, schema: 'Board' },
    errors: ['validation_failed', 'unknown_board'],
  },
  {
    route: 'get /boards/{boardId}/members',
    operationId: 'listMembers',
    summary: "List a board's members",
    params: ['boardId'],
    success: { status: 200, schema: 'MemberList' },
    errors: ['validation_failed', 'unknown_board'],
  },
  {
    route: 'get /boards/{boardId}/messages',
    operationId: 'listMessages',
    summary: 'List messages, highest seq first, with cursor paging',
    params: ['boardId', 'before', 'limit'],
    success: { status: 200, schema: 'MessageList' },
    errors: ['validation_failed', 'unknown_board'],
  },
  {
    route: 'post /boards/{boardId}/messages',
    operationId: 'sendMessage',
    summary: 'Send a message as the app',
    params: ['boardId', 'idempotencyKey'],
    body: 'SendMessageBody',
    success: { status: 200, schema: 'Message' },
    errors: [...BODY_ERRORS, 'unknown_board', ...IDEMPOTENCY_ERRORS],
  },
  {
    route: 'patch /boards/{boardId}/messages/{messageId}',
    operationId: 'editMessage',
    summary: "Edit the app's own message",
    params: ['boardId', 'messageId', 'idempotencyKey'],
    body: 'EditMessageBody',
    success: { status: 200, schema: 'Message' },
    errors: [...BODY_ERRORS, 'forbidden', 'unknown_board', 'unknown_message', ...IDEMPOTENCY_ERRORS],
  },
  {
    route: 'delete /boards/{boardId}/messages/{messageId}',
    operationId: 'deleteMessage',
    summary: "Delete the app's own message (idempotent)",
    params: ['boardId', 'messageId'],
    success: { status: 204, schema: null },
    errors: ['validation_failed', 'forbidden', 'unknown_board', 'unknown_message'],
  },
  {
    route: 'get /users/{userId}',
    operationId: 'getUser',
    summary: "Read a user's public profile",
    params: ['userId'],
    success: { status: 200, schema: 'UserProfile' },
    errors: ['validation_failed', 'unknown_user'],
  },
  {
    route: 'get /app',
    operationId: 'getApp',
    summary: 'Read the app the token belongs to',
    success: { status: 200, schema: 'App' },
  },
  {
    route: 'get /app/commands',
    operationId: 'listCommands',
    summary: "List the app's registered slash commands",
    success: { status: 200, schema: 'CommandList' },
  },
  {
    route: 'put /app/commands',
    operationId: 'replaceCommands',
    summary: "Replace the app's whole command set",
    body: 'ReplaceCommandsBody',
    success: { status: 200, schema: 'CommandList' },
    errors: [...BODY_ERRORS],
  },
  {
    route: 'post /interactions/{token}',
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
    route: 'get /gateway',
    operationId: 'openGateway',
    summary: 'Open the server-sent event stream of activity on the app’s boards',
    success: { status: 200, schema: null },
  },
];

/** The 13 endpoints of CONTRACT.md "Endpoints". */
export const ENDPOINTS: readonly EndpointSpec[] = ROWS.map(
  ({ route, auth = true, params = [], errors = [], ...rest }, i) => {
    const [method, path] = route.split(' ') as [EndpointSpec['method'], string];
    return { n: i + 1, method, path, auth, params, errors, ...rest };
  },
);

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
