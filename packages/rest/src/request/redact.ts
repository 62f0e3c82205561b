import type { Call } from './call.js';

/** What replaces a credential in text that came from the server. */
export const REDACTED = '[redacted]';

/**
 * The credentials of a call, in every form a server could echo them: the app token (also the whole
 * of `Authorization: Bearer <token>`), the interaction token and its form in the path. Longest
 * first, so that a credential that contains another is replaced whole.
 * @param appToken - the client's token, if any
 * @param call - the call (endpoint 12 carries an interaction token)
 */
export function secretsOf(appToken: string | undefined, call: Pick<Call, 'interactionToken'>): readonly string[] {
  const secrets = new Set<string>();
  if (appToken) secrets.add(appToken);
  if (call.interactionToken) {
    secrets.add(call.interactionToken);
    secrets.add(encodeURIComponent(call.interactionToken));
  }
  return [...secrets].sort((a, b) => b.length - a.length);
}

/**
 * Replaces every credential in server-provided text with {@link REDACTED}. Call it on the whole
 * text, before any cut to a bound: a cut first could leave half a token that no longer matches.
 * @param text - text from the server
 * @param secrets - the call's credentials, from {@link secretsOf}
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}
