import type { Logger } from '@boardbot/protocol';
import { classTransformer } from '../kernel/class-transformer.js';
import { validate } from '../kernel/class-validator.js';
import type { Class } from '../kernel/metadata.js';
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

/** The session value as stored: plain JSON. */
export function toPlain(value: object): unknown {
  return classTransformer().instanceToPlain(value);
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
  if (!value || (value.expiresAt !== null && value.expiresAt <= now)) return new rule.shape();
  const { plainToInstance } = classTransformer();
  if (value.shape === rule.version) {
    const stored = plainToInstance(rule.shape, value.data);
    if ((await problemsOf(stored)).length === 0) return stored;
  }
  const migrated = rule.migrate?.(value.data, value.shape);
  if (migrated !== undefined) {
    const instance = Object.assign(new rule.shape(), plainToInstance(rule.shape, migrated));
    const problems = await problemsOf(instance);
    if (problems.length === 0) return instance;
    log.warn({ session: rule.name, problems }, 'session migration gave an invalid value: the session is reset');
    return new rule.shape();
  }
  log.info(
    { session: rule.name, stored_version: value.shape, version: rule.version },
    'stored session does not fit its class and there is no migrate rule: the session is reset',
  );
  return new rule.shape();
}
