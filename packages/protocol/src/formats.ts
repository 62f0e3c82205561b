import { FormatRegistry } from '@sinclair/typebox';
import { UUID_PATTERN } from './limits.js';

const uuid = new RegExp(UUID_PATTERN);
// RFC 3339 with an explicit offset; the contract always sends UTC with milliseconds, but a tolerant
// reader accepts any valid RFC 3339 time.
const dateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** Registers the string formats the schemas use with TypeBox; idempotent. */
export function registerFormats(): void {
  if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (v) => uuid.test(v));
  if (!FormatRegistry.Has('date-time'))
    FormatRegistry.Set('date-time', (v) => dateTime.test(v) && !Number.isNaN(Date.parse(v)));
}
