import { CONTROL_PREFIX, checkerFor } from '@boardbot/protocol';
import type { Static, TSchema } from '@sinclair/typebox';
import type { AppInfo } from '../../control/schemas/responses.js';
import { validationFailed } from '../../errors.js';
import type { Platform } from '../../platform/platform.js';
import { type AppRow, toApp } from '../../store/apps.js';

/** Path of a control API route. */
export const ctl = (path: string) => `${CONTROL_PREFIX}${path}`;

/** Route options every control route shares: the admin key. */
export const ADMIN = { config: { auth: 'admin' as const } };

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
