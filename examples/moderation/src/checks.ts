/** Links in a message: `http(s)://host/...`. */
export const LINK = /\bhttps?:\/\/([^\s/?#:]+)[^\s]*/gi;

/** The first banned word used as a whole word (any case), if any. */
export function findBannedWord(content: string, bannedWords: readonly string[]): string | undefined {
  const words = new Set(content.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []);
  return bannedWords.find((w) => words.has(w));
}

/** The host of the first link that is not to an allowed host (or one of its subdomains), if any. */
export function findForbiddenHost(content: string, allowedHosts: readonly string[]): string | undefined {
  for (const match of content.matchAll(LINK)) {
    const host = (match[1] ?? '').toLowerCase();
    if (!allowedHosts.some((a) => host === a || host.endsWith(`.${a}`))) return host;
  }
  return undefined;
}
