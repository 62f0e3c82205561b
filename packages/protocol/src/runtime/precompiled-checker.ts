import { createRequire } from 'node:module';
import type { TSchema } from '@sinclair/typebox';
import type * as TypeBoxErrors from '@sinclair/typebox/errors';
import { type Checker, issuesOf } from '../checker.js';
import { registerFormats } from '../formats.js';

const require = createRequire(import.meta.url);
let errors: typeof TypeBoxErrors | undefined;

/**
 * TypeBox's error reporter, loaded the first time a value fails: a passing value never needs it, and
 * TypeBox costs a started bot about 13 MB. It is TypeBox's CommonJS build because `check()` is
 * synchronous; the schemas it is given carry TypeBox's `Symbol.for` keys, which both builds share.
 */
function typeBoxErrors(): typeof TypeBoxErrors {
  if (errors === undefined) {
    errors = require('@sinclair/typebox/errors') as typeof TypeBoxErrors;
    registerFormats(require('@sinclair/typebox').FormatRegistry);
  }
  return errors;
}

/** A check compiled ahead of time (`compiled-checks.ts`) and the schema it was compiled from. */
export interface Compiled {
  is(value: unknown): boolean;
  schema: TSchema;
}

/**
 * A checker from a check compiled ahead of time (`compiled-checks.ts`); its schema is read only to
 * explain a failure.
 *
 * @param compiled - The compiled check and the schema it was compiled from.
 */
export function precompiledChecker<T>({ is, schema }: Compiled): Checker<T> {
  return {
    is: is as (value: unknown) => value is T,
    check(value) {
      if (is(value)) return { ok: true, value: value as T };
      return { ok: false, issues: issuesOf(typeBoxErrors().Errors(schema, [], value)) };
    },
  };
}
