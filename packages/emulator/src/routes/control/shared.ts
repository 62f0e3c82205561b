import { type App, CONTROL_PREFIX, type Command, checkerFor } from '@boardbot/protocol';
import type { Static, TSchema } from '@sinclair/typebox';
import { validationFailed } from '../../errors.js';
import type { Platform } from '../../platform/platform.js';
import { type AppRow, toApp } from '../../store/apps.js';

/** Path of a control API route. */
export const ctl = (path: string) => `${CONTROL_PREFIX}${path}`;

/** Route options every control route shares: the admin key. */
export const ADMIN = { config: { auth: 'admin' as const } };

/** `App` plus the boards it is installed on and its registered commands. */
export interface AppInfo extends App {
  board_ids: string[];
  commands: Command[];
}

/** The control API's view of an app. */
export function appInfo(p: Platform, row: AppRow): AppInfo {
  return {
    ...toApp(row),
    board_ids: p.store.boards.idsOfUser(row.bot_user_id),
    commands: p.store.commands.list(row.id),
  };
}

/** Checks an optional body (absent means `{}`) against `schema`. */
export function optionalBody<S extends TSchema>(schema: S, body: unknown): Static<S> {
  const result = checkerFor(schema).check(body ?? {});
  if (!result.ok) throw validationFailed(result.issues);
  return result.value;
}
