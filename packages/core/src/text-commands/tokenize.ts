/** One argument of a text invocation. */
export interface TextToken {
  /** The argument, quotes and escapes removed. */
  value: string;
  /** Where it starts in the line (at its opening quote, if any). */
  start: number;
  /** `name:value` with `name:` typed bare (no quote or escape before the colon): the name and the value. */
  named?: { name: string; value: string };
}

/** The arguments of a line, or where it cannot be read. */
export type Tokenized = { ok: true; tokens: TextToken[] } | { ok: false; problem: string };

const SPACE = /\s/;
const NAME = /^[a-z0-9][a-z0-9_-]*$/i;

// Shell-style rules made for chat (docs/commands-and-options.md, "How a line is read"): white space
// separates arguments; "double" and 'single' quotes group them; a backslash takes the next character
// as it is. A quote opens only at the start of an argument or of a named value (`text:"buy milk"`),
// so an apostrophe inside a word (`don't`) needs no escape. No package fits: shell-quote expands
// `$VAR` and reads `#`, `|`, `&` and `>` as shell syntax, string-argv has no backslash escapes, and
// neither tells where an argument starts or whether its colon was quoted.

/**
 * Splits the arguments of a text invocation.
 * @param line - the text after the command (and subcommand) name
 */
export function tokenize(line: string): Tokenized {
  const tokens: TextToken[] = [];
  let i = 0;
  while (i < line.length) {
    if (SPACE.test(line[i] as string)) {
      i++;
      continue;
    }
    const start = i;
    let value = '';
    let bare = true;
    let named: { name: string; at: number } | undefined;
    let quoteMayOpen = true;
    while (i < line.length && !SPACE.test(line[i] as string)) {
      const c = line[i] as string;
      if ((c === '"' || c === "'") && quoteMayOpen) {
        const end = closing(line, i + 1, c);
        if (end === undefined) return { ok: false, problem: `the ${c} quote at "${excerpt(line, i)}" is not closed` };
        value += end.text;
        i = end.next;
        bare = false;
        // Quotes chain like a shell's: "a"'b' is one argument, ab.
        quoteMayOpen = true;
        continue;
      }
      quoteMayOpen = false;
      if (c === '\\' && i + 1 < line.length) {
        value += line[i + 1];
        i += 2;
        bare = false;
        continue;
      }
      if (c === ':' && bare && named === undefined && NAME.test(value)) {
        named = { name: value.toLowerCase(), at: value.length + 1 };
        quoteMayOpen = true;
      }
      value += c;
      i++;
    }
    const token: TextToken = { value, start };
    if (named) token.named = { name: named.name, value: value.slice(named.at) };
    tokens.push(token);
  }
  return { ok: true, tokens };
}

/** The quoted text from `from` to the closing `quote`; in double quotes `\"` and `\\` are escapes. */
function closing(line: string, from: number, quote: string): { text: string; next: number } | undefined {
  let text = '';
  for (let i = from; i < line.length; i++) {
    const c = line[i] as string;
    if (c === quote) return { text, next: i + 1 };
    const next = line[i + 1];
    if (quote === '"' && c === '\\' && (next === '"' || next === '\\')) {
      text += next;
      i++;
      continue;
    }
    text += c;
  }
  return undefined;
}

function excerpt(line: string, at: number): string {
  const rest = line.slice(at);
  return rest.length > 20 ? `${rest.slice(0, 20)}…` : rest;
}
