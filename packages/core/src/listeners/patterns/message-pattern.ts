import { compileRe2, type Re2Exec } from './re2-engine.js';

/** How a listener's regular expression is run. */
export type RegexEngine = 'js' | 're2';

/** Longest message content a regular expression is run on, unless the listener says otherwise. */
export const DEFAULT_MATCH_MAX_LENGTH = 2000;

/** A listener's regular expression and how it is run. */
export interface MessagePatternOptions {
  /** How it runs (the listener's `engine`). */
  engine: RegexEngine;
  /** Content longer than this is not matched. */
  maxLength: number;
  /** The author accepted a pattern the checker finds vulnerable: it is not checked. */
  allowSlowRegex: boolean;
  /** The listener (`Class.method`), once known. */
  where: string;
}

/**
 * A listener's regular expression as the runtime runs it: never on content longer than `maxLength`,
 * and on the re2 engine (linear time) when asked. With the `js` engine, `createBot(...).start()`
 * checks it for catastrophic backtracking first (see `checkPatterns`).
 */
export class MessagePattern {
  private readonly re2: Re2Exec | undefined;

  /** The listener's expression, as given. */
  readonly regex: RegExp;
  /** Its engine, length bound and opt-in. */
  readonly options: MessagePatternOptions;

  /**
   * @param regex - the listener's expression, as given
   * @param options - engine, length bound, opt-in
   */
  constructor(regex: RegExp, options: MessagePatternOptions) {
    this.regex = regex;
    this.options = options;
    this.re2 = options.engine === 're2' ? compileRe2(regex, options.where) : undefined;
  }

  /** Whether the start-time check applies: the JavaScript engine, without the author's opt-in. */
  get checked(): boolean {
    return this.options.engine === 'js' && !this.options.allowSlowRegex;
  }

  /** The match, or null; content over `maxLength` is not matched at all. */
  exec(content: string): RegExpExecArray | null {
    if (content.length > this.options.maxLength) return null;
    if (this.re2) return this.re2(content);
    // A global or sticky expression remembers lastIndex between calls; every message starts afresh.
    this.regex.lastIndex = 0;
    return this.regex.exec(content);
  }
}
