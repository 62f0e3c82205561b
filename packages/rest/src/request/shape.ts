import { type ErrorContext, InvalidResponseError } from '../errors.js';
import { excerpt } from './read-body.js';
import { redact } from './redact.js';

function invalid(
  problem: string,
  value: unknown,
  ctx: ErrorContext,
  secrets: () => readonly string[],
): InvalidResponseError {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return new InvalidResponseError({ status: 200, problem, excerpt: excerpt(redact(text, secrets())) }, ctx);
}

/**
 * The list of a list answer, wrapped (`{ boards: [...] }`) or bare (`[...]`): CONTRACT "Tolerance"
 * accepts both. Items are returned as they came, unknown fields kept.
 * @param value - the parsed body
 * @param key - the wrapping key (`boards`, `members`, `messages`, `commands`)
 * @param ctx - the call, for the error
 * @param secrets - the call's credentials (asked for only on failure), kept out of the error's excerpt
 */
export function listOf<T>(value: unknown, key: string, ctx: ErrorContext, secrets: () => readonly string[]): T[] {
  if (Array.isArray(value)) return value as T[];
  const inner = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  if (Array.isArray(inner)) return inner as T[];
  throw invalid(`expected a list, as { ${key}: [...] } or [...]`, value, ctx, secrets);
}

/**
 * A record answer: any JSON object is accepted as is (unknown fields kept), anything else is an
 * {@link InvalidResponseError}.
 * @param value - the parsed body
 * @param ctx - the call, for the error
 * @param secrets - the call's credentials (asked for only on failure), kept out of the error's excerpt
 */
export function recordOf<T>(value: unknown, ctx: ErrorContext, secrets: () => readonly string[]): T {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as T;
  throw invalid('expected a JSON object', value, ctx, secrets);
}
