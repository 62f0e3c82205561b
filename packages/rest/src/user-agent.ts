import { VERSION } from './version.js';

/**
 * The `User-Agent` of every request: names boardbot, this package's version and the Node version,
 * so platform operators can tell boardbot traffic apart.
 * @param suffix - appended after a space when non-empty (e.g. `my-bot/1.2`)
 * @example userAgent('dice-bot/1.0') // 'boardbot-rest/0.1.0 (boardbot; +https://github.com/boardbot/boardbot) node/v20.19.0 dice-bot/1.0'
 */
export function userAgent(suffix = ''): string {
  const base = `boardbot-rest/${VERSION} (boardbot; +https://github.com/boardbot/boardbot) node/${process.version}`;
  return suffix ? `${base} ${suffix}` : base;
}
