import { type ErrorContext, InvalidResponseError } from '../errors.js';
import { excerpt } from './read-body.js';

function invalid(problem: string, value: unknown, ctx: ErrorContext): InvalidResponseError {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return new InvalidResponseError({ status: 200, problem, excerpt: excerpt(text) }, ctx);
}

/**
 * The list of a list answer, wrapped (`{ boards: [...] }`) or bare (`[...]`): CONTRACT "Tolerance"
 * accepts both. Items are returned as they came, unknown fields kept.
 * @param value - the parsed body
 * @param key - the wrapping key (`boards`, `members`, `messages`, `commands`)
 * @param ctx - the call, for the error
 */
export function listOf<T>(value: unknown, key: string, ctx: ErrorContext): T[] {
  if (Array.isArray(value)) return value as T[];
  const inner = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  if (Array.isArray(inner)) return inner as T[];
  throw invalid(`expected a list, as { ${key}: [...] } or [...]`, value, ctx);
}

/**
 * A record answer: any JSON object is accepted as is (unknown fields kept), anything else is an
 * {@link InvalidResponseError}.
 * @param value - the parsed body
 * @param ctx - the call, for the error
 */
export function recordOf<T>(value: unknown, ctx: ErrorContext): T {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as T;
  throw invalid('expected a JSON object', value, ctx);
}
