import { UUID_PATTERN } from './limits.js';

const uuid = new RegExp(UUID_PATTERN);
// RFC 3339 with an explicit offset; the contract always sends UTC with milliseconds, but a tolerant
// reader accepts any valid RFC 3339 time.
const dateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * The string formats the schemas use, by name: what TypeBox's format registry is given, and what the
 * precompiled checkers of `@boardbot/protocol/runtime` call.
 */
export const FORMAT_CHECKS: Readonly<Record<string, (value: string) => boolean>> = {
  uuid: (v) => uuid.test(v),
  'date-time': (v) => dateTime.test(v) && !Number.isNaN(Date.parse(v)),
};

/** The part of TypeBox's `FormatRegistry` that {@link registerFormats} uses. */
export interface FormatRegistryLike {
  Has(name: string): boolean;
  Set(name: string, check: (value: string) => boolean): void;
}

/**
 * Registers {@link FORMAT_CHECKS} with a TypeBox format registry; idempotent.
 *
 * @param registry - TypeBox's `FormatRegistry` (of its ES module build, or of its CommonJS one).
 */
export function registerFormats(registry: FormatRegistryLike): void {
  for (const [name, check] of Object.entries(FORMAT_CHECKS)) {
    if (!registry.Has(name)) registry.Set(name, check);
  }
}
