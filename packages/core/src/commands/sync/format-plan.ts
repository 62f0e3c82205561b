import type { CommandSyncPlan } from './plan.js';

/**
 * Renders a sync plan for people (logs, `boardbot commands diff`): a summary line, then `+` added,
 * `~` changed (with each difference), `-` removed and `=` unchanged commands.
 *
 * @param plan - from `planCommandSync`
 */
export function formatPlan(plan: CommandSyncPlan): string {
  const { added, changed, removed, unchanged } = plan;
  const summary = plan.inSync
    ? `Commands in sync (${unchanged.length} unchanged)`
    : `Command sync plan: ${added.length} to add, ${changed.length} to change, ${removed.length} to remove, ${unchanged.length} unchanged`;
  const lines = [summary];
  for (const c of added) lines.push(`  + /${c.name}  ${c.description}`);
  for (const c of changed) {
    lines.push(`  ~ /${c.name}`);
    for (const d of c.differences) lines.push(`      ${d}`);
  }
  for (const c of removed) lines.push(`  - /${c.name}`);
  if (unchanged.length > 0) lines.push(`  = ${unchanged.map((n) => `/${n}`).join(', ')}`);
  return lines.join('\n');
}
