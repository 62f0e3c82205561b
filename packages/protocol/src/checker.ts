import type { ErrorDetail } from './schemas/error-envelope.js';

/** The outcome of checking a value against a schema. */
export type CheckResult<T> = { ok: true; value: T } | { ok: false; issues: ErrorDetail[] };

/** A compiled checker for one schema. */
export interface Checker<T> {
  /** Whether `value` matches, narrowing its type. */
  is(value: unknown): value is T;
  /** Checks `value` and lists every problem as `{ path, message }` (the `validation_failed` details). */
  check(value: unknown): CheckResult<T>;
}

/**
 * Turns TypeBox's errors into the `details` of a `validation_failed` envelope: paths such as
 * `/embeds/0/color` (`/` for the root), one line per path, at most 20.
 *
 * @param errors - What TypeBox's `Errors` yielded for a value that failed.
 */
export function issuesOf(errors: Iterable<{ path: string; message: string }>): ErrorDetail[] {
  const issues: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const path = e.path || '/';
    // TypeBox reports each failing branch of a union; one line per path is enough for people.
    if (seen.has(path)) continue;
    seen.add(path);
    issues.push({ path, message: e.message });
    if (issues.length >= 20) break;
  }
  return issues;
}
