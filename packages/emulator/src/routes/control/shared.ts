import { CONTROL_PREFIX, checkerFor } from '@boardbot/protocol';
import type { Static, TSchema } from '@sinclair/typebox';
import type {
  FastifyInstance,
  HTTPMethods,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import { CONTROL_OPERATIONS, type ControlOperation } from '../../control/openapi/operations.js';
import type { AppInfo } from '../../control/schemas/responses.js';
import { validationFailed } from '../../errors.js';
import type { Platform } from '../../platform/platform.js';
import { type AppRow, toApp } from '../../store/apps.js';

/** Path of a control API route. */
export const ctl = (path: string) => `${CONTROL_PREFIX}${path}`;

/** Route options every control route shares: the admin key. */
export const ADMIN = { config: { auth: 'admin' as const } };

/**
 * Registers the route of the control operation `operationId` as `CONTROL_OPERATIONS` states it (the
 * OpenAPI document's source): its method, its path and the schemas it validates with, behind the admin
 * key. An optional body is not in the route's schema: its handler checks it with {@link optionalBody}.
 *
 * @param app - the server
 * @param operationId - the operation, e.g. `createUser`
 * @param handler - the route's handler
 */
export function controlRoute<G extends RouteGenericInterface = RouteGenericInterface>(
  app: FastifyInstance,
  operationId: string,
  handler: RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, G>,
): void {
  // Every route names an operation of the table: a wrong name fails every start, and every test.
  const op = CONTROL_OPERATIONS.find((o) => o.operationId === operationId) as ControlOperation;
  const schema = {
    ...(op.params && { params: op.params }),
    ...(op.query && { querystring: op.query }),
    ...(op.body && !op.bodyOptional && { body: op.body }),
  };
  const url = ctl(op.path.replace(/\{(\w+)\}/g, ':$1'));
  app.route<G>({ method: op.method.toUpperCase() as HTTPMethods, url, ...ADMIN, schema, handler });
}

/** The control API's view of an app. */
export function appInfo(p: Platform, row: AppRow): AppInfo {
  return {
    ...toApp(row),
    board_ids: p.store.boards.idsOfUser(row.bot_user_id),
    commands: [...p.store.commands.list(row.id)],
    token_strength: row.token_strength,
  };
}

/** Checks an optional body (absent means `{}`) against `schema`. */
export function optionalBody<S extends TSchema>(schema: S, body: unknown): Static<S> {
  const result = checkerFor(schema).check(body ?? {});
  if (!result.ok) throw validationFailed(result.issues);
  return result.value;
}
