import type {
  CommandDefinition,
  EditMessageBody,
  InteractionResponseBody,
  ListMessagesQuery,
  SendMessageBody,
} from '@boardbot/protocol';
import {
  BODY_CHECKERS,
  commandSetIssues,
  type ErrorDetail,
  LIMITS,
  messageBodyIssues,
} from '@boardbot/protocol/runtime';
import { InvalidArgumentError } from './errors.js';
import type { Call, HttpMethod } from './request/call.js';

// The typed calls of CONTRACT "Endpoints" 1–12 as plain descriptions; RestClient runs them.

const checkSend = BODY_CHECKERS.SendMessageBody;
const checkEdit = BODY_CHECKERS.EditMessageBody;
const checkAnswer = BODY_CHECKERS.InteractionResponseBody;
const checkCommands = BODY_CHECKERS.ReplaceCommandsBody;

/**
 * One path segment from a caller's id: a non-empty string, never `.` or `..` (which would walk the
 * path), percent-encoded.
 * @param name - the parameter's name, for the error
 * @param value - the id
 * @param method - for the error context
 */
function segment(name: string, value: unknown, method: HttpMethod): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 512 || value === '.' || value === '..') {
    const details = [{ path: `/${name}`, message: 'Expected an id' }];
    throw new InvalidArgumentError(`Invalid ${name}: expected a non-empty id string`, details, { method, path: '' });
  }
  return encodeURIComponent(value);
}

function body(value: unknown, issues: ErrorDetail[], method: HttpMethod, path: string): string {
  if (issues.length > 0) {
    throw new InvalidArgumentError(`Invalid body for ${method} ${path}; nothing was sent`, issues, { method, path });
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (typeof value !== 'object' || value === null || text === undefined) {
    const problem = 'expected a JSON object or array';
    throw new InvalidArgumentError(`Invalid body for ${method} ${path}: ${problem}`, [], { method, path });
  }
  return text;
}

/**
 * The problem of a count the caller gave (none when it is absent or fits), in the contract's shape.
 * @param value - the count, if given
 * @param path - where it was given, e.g. `/limit`
 * @param min - the least it may be
 * @param max - the most it may be, if bounded
 */
export function checkCount(value: number | undefined, path: string, min: number, max?: number): ErrorDetail[] {
  if (value === undefined || (Number.isInteger(value) && value >= min && value <= (max ?? value))) return [];
  const message = max === undefined ? `Expected an integer ≥ ${min}` : `Expected an integer from ${min} to ${max}`;
  return [{ path, message }];
}

/** The path of one message, its ids checked and encoded. */
const messagePath = (boardId: string, messageId: string, method: HttpMethod) =>
  `/boards/${segment('boardId', boardId, method)}/messages/${segment('messageId', messageId, method)}`;

function call(method: HttpMethod, path: string, route: string, expect: Call['expect'] = 'json'): Call {
  return { method, path, logPath: path, route, expect };
}

/** `GET /boards` (1). */
export const listBoards = (): Call => call('GET', '/boards', '/boards');

/** `GET /boards/{boardId}` (2). @param boardId - the board */
export const getBoard = (boardId: string): Call =>
  call('GET', `/boards/${segment('boardId', boardId, 'GET')}`, '/boards/{boardId}');

/** `GET /boards/{boardId}/members` (3). @param boardId - the board */
export const listMembers = (boardId: string): Call =>
  call('GET', `/boards/${segment('boardId', boardId, 'GET')}/members`, '/boards/{boardId}/members');

/**
 * `GET /boards/{boardId}/messages?before&limit` (4); bounds checked here so a bad cursor fails early.
 * @param boardId - the board
 * @param query - cursor and page size
 */
export function listMessages(boardId: string, query: ListMessagesQuery = {}): Call {
  const { before, limit } = query;
  const issues = [...checkCount(before, '/before', 1), ...checkCount(limit, '/limit', 1, LIMITS.listMax)];
  const path = `/boards/${segment('boardId', boardId, 'GET')}/messages`;
  if (issues.length > 0)
    throw new InvalidArgumentError(`Invalid query for GET ${path}`, issues, { method: 'GET', path });
  const params = [before === undefined ? '' : `before=${before}`, limit === undefined ? '' : `limit=${limit}`];
  const search = params.filter(Boolean).join('&');
  return call('GET', search ? `${path}?${search}` : path, '/boards/{boardId}/messages');
}

/**
 * `POST /boards/{boardId}/messages` (5).
 * @param boardId - the board
 * @param message - content, embeds, replyTo
 * @param validate - check the body against the protocol first
 */
export function sendMessage(boardId: string, message: SendMessageBody, validate: boolean): Call {
  const c = call('POST', `/boards/${segment('boardId', boardId, 'POST')}/messages`, '/boards/{boardId}/messages');
  const issues = validate ? schemaThen(checkSend.check(message), messageBodyIssues) : [];
  c.body = body(message, issues, c.method, c.path);
  return c;
}

/**
 * `PATCH /boards/{boardId}/messages/{messageId}` (6).
 * @param boardId - the board
 * @param messageId - the app's own message
 * @param edit - the new content
 * @param validate - check the body against the protocol first
 */
export function editMessage(boardId: string, messageId: string, edit: EditMessageBody, validate: boolean): Call {
  const c = call('PATCH', messagePath(boardId, messageId, 'PATCH'), '/boards/{boardId}/messages/{messageId}');
  const checked = checkEdit.check(edit);
  c.body = body(edit, validate && !checked.ok ? checked.issues : [], c.method, c.path);
  return c;
}

/**
 * `DELETE /boards/{boardId}/messages/{messageId}` (7); answers 204.
 * @param boardId - the board
 * @param messageId - the app's own message
 */
export const deleteMessage = (boardId: string, messageId: string): Call =>
  call('DELETE', messagePath(boardId, messageId, 'DELETE'), '/boards/{boardId}/messages/{messageId}', 'empty');

/** `GET /users/{userId}` (8). @param userId - the user */
export const getUser = (userId: string): Call =>
  call('GET', `/users/${segment('userId', userId, 'GET')}`, '/users/{userId}');

/** `GET /app` (9). */
export const getApp = (): Call => call('GET', '/app', '/app');

/** `GET /app/commands` (10). */
export const listCommands = (): Call => call('GET', '/app/commands', '/app/commands');

/**
 * `PUT /app/commands` (11): the whole new set.
 * @param commands - every command the app should have
 * @param validate - check the set against the protocol first
 */
export function replaceCommands(commands: readonly CommandDefinition[], validate: boolean): Call {
  const c = call('PUT', '/app/commands', '/app/commands');
  const issues = validate ? schemaThen(checkCommands.check(commands), commandSetIssues) : [];
  c.body = body(commands, issues, c.method, c.path);
  return c;
}

/**
 * `POST /interactions/{token}` (12). The token is the credential: it is never in `logPath`.
 * @param token - the interaction token
 * @param answer - content and embeds
 * @param validate - check the body against the protocol first
 */
export function answerInteraction(token: string, answer: InteractionResponseBody, validate: boolean): Call {
  const logPath = '/interactions/:token';
  const path = `/interactions/${segment('interactionToken', token, 'POST')}`;
  const issues = validate ? schemaThen(checkAnswer.check(answer), messageBodyIssues) : [];
  return {
    method: 'POST',
    path,
    logPath,
    route: '/interactions/{token}',
    expect: 'json',
    interactionToken: token,
    body: body(answer, issues, 'POST', logPath),
  };
}

function schemaThen<T>(
  checked: { ok: true; value: T } | { ok: false; issues: ErrorDetail[] },
  rules: (v: T) => ErrorDetail[],
): ErrorDetail[] {
  return checked.ok ? rules(checked.value) : checked.issues;
}
