import type { Command, CommandDefinition } from '@boardbot/protocol';
import type { Outbox } from './outbox.js';
import type { Platform } from './platform.js';

/**
 * Replaces an app's whole command set (inside a write). CONTRACT: ids of unchanged names are kept;
 * `updated_at` moves only for commands whose definition changed. Unknown option keys are kept
 * verbatim (SPEC.md: option fields are open).
 */
export function replaceCommands(
  p: Platform,
  out: Outbox,
  appId: string,
  defs: readonly CommandDefinition[],
): Command[] {
  const before = new Map(p.store.commands.list(appId).map((c) => [c.name, c]));
  const now = p.isoNow();
  const commands = defs.map((d): Command => {
    const options = d.options ?? [];
    const old = before.get(d.name);
    const same =
      old !== undefined && old.description === d.description && JSON.stringify(old.options) === JSON.stringify(options);
    return {
      id: old?.id ?? p.newId(),
      name: d.name,
      description: d.description,
      options,
      updated_at: same ? old.updated_at : now,
    };
  });
  p.store.commands.replace(appId, commands);
  out.activityEvent('commands.update', { app_id: appId, commands });
  return commands;
}
