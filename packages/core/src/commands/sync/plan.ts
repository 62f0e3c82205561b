import type { Command, CommandDefinition } from '@boardbot/protocol';
import { normaliseCommand, sameValue } from './normalise.js';

/** A command whose registered form differs from the declared one. */
export interface CommandChange {
  name: string;
  /** As registered (normalised). */
  before: CommandDefinition;
  /** As declared (normalised). */
  after: CommandDefinition;
  /** One line per difference, e.g. `description`, `option sides: max_value 100 → 1000`. */
  differences: string[];
}

/** What syncing the declared commands would do. */
export interface CommandSyncPlan {
  /** Declared, not registered. */
  added: CommandDefinition[];
  /** Registered under the same name, but different. */
  changed: CommandChange[];
  /** Registered, no longer declared. */
  removed: CommandDefinition[];
  /** Names of commands that are the same. */
  unchanged: string[];
  /** Whether nothing needs to be written. */
  inSync: boolean;
}

/**
 * Compares the declared command set with the registered one. The sets are compared by name (their
 * order does not matter) after normalisation (ids, times, default values and the order of options
 * and choices do not matter), so equal sets give `inSync: true` and nothing is written.
 *
 * @param declared - the commands the bot declares (`deriveCommands`)
 * @param registered - `GET /app/commands`
 */
export function planCommandSync(
  declared: readonly CommandDefinition[],
  registered: readonly (Command | CommandDefinition)[],
): CommandSyncPlan {
  const before = new Map(registered.map((c) => [c.name, normaliseCommand(c)]));
  const plan: CommandSyncPlan = { added: [], changed: [], removed: [], unchanged: [], inSync: true };
  const declaredNames = new Set<string>();
  for (const d of declared) {
    declaredNames.add(d.name);
    const after = normaliseCommand(d);
    const old = before.get(d.name);
    if (!old) plan.added.push(after);
    else if (sameValue(old, after)) plan.unchanged.push(d.name);
    else plan.changed.push({ name: d.name, before: old, after, differences: differences(old, after) });
  }
  for (const [name, c] of before) if (!declaredNames.has(name)) plan.removed.push(c);
  plan.inSync = plan.added.length + plan.changed.length + plan.removed.length === 0;
  return plan;
}

function differences(before: CommandDefinition, after: CommandDefinition): string[] {
  const lines: string[] = [];
  if (before.description !== after.description) {
    lines.push(`description: ${JSON.stringify(before.description)} → ${JSON.stringify(after.description)}`);
  }
  const oldOptions = before.options ?? [];
  const newOptions = after.options ?? [];
  const oldByName = new Map(oldOptions.map((o) => [o.name, o]));
  const newNames = new Set(newOptions.map((o) => o.name));
  for (const o of newOptions) {
    const old = oldByName.get(o.name);
    if (!old) {
      lines.push(`option ${o.name}: added`);
      continue;
    }
    const keys = new Set([...Object.keys(old), ...Object.keys(o)]);
    for (const k of keys) {
      const a = (old as Record<string, unknown>)[k];
      const b = (o as Record<string, unknown>)[k];
      if (!sameValue(a, b)) lines.push(`option ${o.name}: ${k} ${show(a)} → ${show(b)}`);
    }
  }
  for (const o of oldOptions) if (!newNames.has(o.name)) lines.push(`option ${o.name}: removed`);
  return lines;
}

function show(value: unknown): string {
  return value === undefined ? '(none)' : JSON.stringify(value);
}
