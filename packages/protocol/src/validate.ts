import type { Static, TSchema } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { registerFormats } from './formats.js';
import type { ErrorDetail } from './schemas/error-envelope.js';

registerFormats();

/** The outcome of checking a value against a schema. */
export type CheckResult<T> = { ok: true; value: T } | { ok: false; issues: ErrorDetail[] };

/** A compiled checker for one schema. */
export interface Checker<T> {
  /** Whether `value` matches, narrowing its type. */
  is(value: unknown): value is T;
  /** Checks `value` and lists every problem as `{ path, message }` (the `validation_failed` details). */
  check(value: unknown): CheckResult<T>;
}

const cache = new WeakMap<TSchema, TypeCheck<TSchema>>();

/**
 * Compiles `schema` once (cached) into a fast checker whose problems use the error envelope's
 * `details` shape, with JSON-pointer-like paths such as `/embeds/0/color`.
 */
export function checkerFor<S extends TSchema>(schema: S): Checker<Static<S>> {
  let compiled = cache.get(schema);
  if (!compiled) {
    compiled = TypeCompiler.Compile(schema);
    cache.set(schema, compiled);
  }
  const c = compiled;
  return {
    is: (value): value is Static<S> => c.Check(value),
    check(value) {
      if (c.Check(value)) return { ok: true, value: value as Static<S> };
      const issues: ErrorDetail[] = [];
      const seen = new Set<string>();
      for (const e of c.Errors(value)) {
        const path = e.path || '/';
        // TypeBox reports each failing branch of a union; one line per path is enough for people.
        if (seen.has(path)) continue;
        seen.add(path);
        issues.push({ path, message: e.message });
        if (issues.length >= 20) break;
      }
      return { ok: false, issues };
    },
  };
}
