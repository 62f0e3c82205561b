import type { Logger } from '@boardbot/protocol';
import { classTransformer } from '../kernel/class-transformer.js';
import { validate } from '../kernel/class-validator.js';
import type { Class } from '../kernel/metadata.js';
import { escapedKeys, restoredKeys } from './record-keys.js';
import type { SessionValue } from './session-store.js';

/** What turning stored JSON into the session's class needs. */
export interface ShapeRule<T extends object> {
  shape: Class<T>;
  name: string;
  version: number;
  migrate: ((stored: unknown, fromVersion: number) => Partial<T> | undefined) | undefined;
}

/** The constraint failures of a session value, one line each; empty when it is valid. */
export async function problemsOf(value: object): Promise<string[]> {
  const errors = await validate(value, { forbidUnknownValues: false });
  return errors.flatMap((e) => Object.values(e.constraints ?? {}).map((text) => `${e.property}: ${text}`));
}

/** The session value as stored: plain JSON, its records' keys as they are (`constructor` too). */
export function toPlain(value: object): unknown {
  return restoredKeys(classTransformer().instanceToPlain(escapedKeys(value)));
}

/** The stored JSON as an instance of the session's class, its records without a prototype. */
function fromPlain<T extends object>(shape: Class<T>, data: unknown): T {
  return restoredKeys(classTransformer().plainToInstance(shape, escapedKeys(data)) as T);
}

/**
 * The current session of a stored value: a new instance when there is none or it expired; the
 * stored one when it is of this version and valid; else what `migrate` makes of it, or a new
 * instance (logged) when there is no migration or it fails.
 *
 * @param rule - the session's class, version and migration
 * @param value - what the store holds
 * @param now - the clock's time
 * @param log - where a reset is reported
 */
export async function currentValue<T extends object>(
  rule: ShapeRule<T>,
  value: SessionValue | null | undefined,
  now: number,
  log: Logger,
): Promise<T> {
  const fresh = () => restoredKeys(new rule.shape());
  if (!value || (value.expiresAt !== null && value.expiresAt <= now)) return fresh();
  if (value.shape === rule.version) {
    const stored = fromPlain(rule.shape, value.data);
    if ((await problemsOf(stored)).length === 0) return stored;
  }
  const migrated = rule.migrate?.(value.data, value.shape);
  if (migrated !== undefined) {
    const instance = Object.assign(fresh(), fromPlain(rule.shape, migrated));
    const problems = await problemsOf(instance);
    if (problems.length === 0) return instance;
    log.warn({ session: rule.name, problems }, 'session migration gave an invalid value: the session is reset');
    return fresh();
  }
  log.info(
    { session: rule.name, stored_version: value.shape, version: rule.version },
    'stored session does not fit its class and there is no migrate rule: the session is reset',
  );
  return fresh();
}
