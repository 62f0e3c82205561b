import type { Board, OptionValue, UserProfile } from '@boardbot/protocol';
import { UUID_PATTERN } from '@boardbot/protocol/runtime';
import type { DerivedOption } from '../commands/options/derive-options.js';
import { apiCodeOf } from '../kernel/api-code.js';
import type { BotRest, RequestOptions } from '../kernel/ports.js';

/** The resolved values (ids in place of names), the ids known to exist, and the problems. */
export interface ResolvedNames {
  values: Record<string, OptionValue>;
  /** Ids a name or an id resolved to: the platform's check asks whether they exist. */
  known: Set<string>;
  problems: string[];
}

const uuid = new RegExp(UUID_PATTERN);

/**
 * Resolves the `user` and `board` options of a text invocation, which people type as a name:
 * a user by id, username (`alice`, `@alice`) or display name among the board's members; a board
 * by id or name (`general`, `#general`) among the boards the app is on. A name that fits several is
 * refused with the candidates, so the person can type the one they mean.
 *
 * @param values - the raw values, by option name
 * @param options - the command's options
 * @param where - the board of the invocation, the REST client and the run's request options
 */
export async function resolveNames(
  values: Readonly<Record<string, OptionValue>>,
  options: readonly DerivedOption[],
  where: { boardId: string; rest: BotRest; requestOptions: RequestOptions },
): Promise<ResolvedNames> {
  // No prototype, and own values only: option names (`constructor`) are the author's, not Object's.
  const out: ResolvedNames = { values: Object.assign(Object.create(null), values), known: new Set(), problems: [] };
  let members: Promise<UserProfile[]> | undefined;
  let boards: Promise<Board[]> | undefined;
  for (const { option } of options) {
    const typed = out.values[option.name];
    if (typeof typed !== 'string' || (option.type !== 'user' && option.type !== 'board')) continue;
    if (option.type === 'user') {
      members ??= where.rest.listMembers(where.boardId, where.requestOptions).then((m) => m.map((x) => x.user));
      const people = await members;
      const found = pick(typed.replace(/^@/, ''), people, [(p) => p.username, (p) => p.display_name]);
      if (found.length === 1) settle(out, option.name, (found[0] as UserProfile).id);
      else if (found.length > 1) {
        const list = found.map((p) => `${p.display_name} (@${p.username}, ${p.id})`).join(', ');
        out.problems.push(`${option.name}: "${typed}" could be ${list}; type the username or the id`);
      } else if (uuid.test(typed) && (await userExists(typed, where))) settle(out, option.name, typed);
      else out.problems.push(`${option.name}: no member of this board is called "${typed}"`);
    } else {
      boards ??= where.rest.listBoards(where.requestOptions);
      const found = pick(typed.replace(/^#/, ''), await boards, [(b) => b.name]);
      if (found.length === 1) settle(out, option.name, (found[0] as Board).id);
      else if (found.length > 1) {
        const list = found.map((b) => `${b.name} (${b.id})`).join(', ');
        out.problems.push(`${option.name}: "${typed}" could be ${list}; type the id`);
      } else out.problems.push(`${option.name}: no board called "${typed}" has this app`);
    }
  }
  return out;
}

function settle(out: ResolvedNames, name: string, id: string): void {
  out.values[name] = id;
  out.known.add(id);
}

/**
 * Those whose id is `typed`; else those whose first field (username, name) is `typed` ignoring case;
 * else those whose next field is (display name).
 */
function pick<T extends { id: string }>(typed: string, items: readonly T[], fields: readonly ((item: T) => string)[]) {
  const byId = items.filter((item) => item.id.toLowerCase() === typed.toLowerCase());
  if (byId.length > 0) return byId;
  const wanted = typed.toLowerCase();
  for (const field of fields) {
    const found = items.filter((item) => field(item).toLowerCase() === wanted);
    if (found.length > 0) return found;
  }
  return [];
}

/** A user id that is not a member's: the platform's slash check takes any existing user, so text does too. */
async function userExists(id: string, where: { rest: BotRest; requestOptions: RequestOptions }): Promise<boolean> {
  try {
    await where.rest.getUser(id, where.requestOptions);
    return true;
  } catch (error) {
    if (apiCodeOf(error) === 'unknown_user') return false;
    throw error;
  }
}
