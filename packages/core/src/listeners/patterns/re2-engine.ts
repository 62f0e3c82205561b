import { InvalidHandlerError } from '../../errors.js';
import { loadOptional } from './load-optional.js';

/** What this module uses of `re2js`. */
interface Re2js {
  RE2JS: {
    CASE_INSENSITIVE: number;
    DOTALL: number;
    MULTILINE: number;
    translateRegExp(expr: RegExp): string;
    compile(regex: string, flags?: number): Re2Pattern;
  };
}

interface Re2Pattern {
  matcher(input: string): Re2Matcher;
  groupCount(): number;
  namedGroups(): Record<string, number>;
}

interface Re2Matcher {
  find(): boolean;
  start(group?: number): number;
  group(group?: number): string | null;
}

/** A regular expression run by RE2 (re2js): linear in the message's length, whatever the pattern. */
export type Re2Exec = (content: string) => RegExpExecArray | null;

/**
 * Compiles a JavaScript regular expression for re2js, which runs it in time linear in the input: no
 * message can make it backtrack. Loads re2js on first use. Throws when RE2 cannot express the pattern
 * (backreferences, lookarounds), naming the listener.
 *
 * @param regex - the listener's expression (flags `i`, `m`, `s` are kept; `g`, `y`, `u` change nothing)
 * @param where - the listener, for the error
 */
export function compileRe2(regex: RegExp, where: string): Re2Exec {
  const { RE2JS } = loadOptional<Re2js>('re2js');
  const flags =
    (regex.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) |
    (regex.multiline ? RE2JS.MULTILINE : 0) |
    (regex.dotAll ? RE2JS.DOTALL : 0);
  let pattern: Re2Pattern;
  try {
    pattern = RE2JS.compile(RE2JS.translateRegExp(regex), flags);
  } catch (error) {
    throw new InvalidHandlerError(
      `${where}: ${String(regex)} cannot run on the re2 engine (${(error as Error).message}): RE2 has no ` +
        "backreferences or lookarounds. Rewrite it without them, or drop { engine: 're2' }.",
    );
  }
  const groups = pattern.groupCount();
  const names = Object.entries(pattern.namedGroups());
  return (content) => {
    const m = pattern.matcher(content);
    if (!m.find()) return null;
    // The shape of RegExp.prototype.exec's answer, so that ctx.match reads the same on either engine.
    const found: (string | undefined)[] = [];
    for (let i = 0; i <= groups; i++) found.push(m.group(i) ?? undefined);
    const match = Object.assign(found, { index: m.start(), input: content }) as RegExpExecArray;
    if (names.length > 0) match.groups = Object.fromEntries(names.map(([name, i]) => [name, found[i] as string]));
    return match;
  };
}
