/** How strictly the bot moderates. Every field has a default; `createModerationBot` takes overrides. */
export interface ModerationRules {
  /** Words that earn a warning (whole words, any case). @defaultValue `['darn', 'heck']` */
  bannedWords: string[];
  /** Hosts people may link to (subdomains included); any other link earns a warning. @defaultValue `[]` */
  allowedHosts: string[];
  /** More than `messages` messages from one person on one board within `windowMs` is a flood. @defaultValue `{ messages: 5, windowMs: 10_000 }` */
  flood: { messages: number; windowMs: number };
  /** How long a warning stays before the bot deletes it, in milliseconds. @defaultValue 30_000 */
  warningTtlMs: number;
}

/** The default rules. */
export const DEFAULT_MODERATION_RULES = {
  bannedWords: ['darn', 'heck'],
  allowedHosts: [],
  flood: { messages: 5, windowMs: 10_000 },
  warningTtlMs: 30_000,
} as const satisfies Required<ModerationRules>;

/** The rules the bot runs with: a provider, so `/mod ban` and `/mod unban` change them for every handler. */
export class Rules implements ModerationRules {
  bannedWords: string[];
  allowedHosts: string[];
  flood: { messages: number; windowMs: number };
  warningTtlMs: number;

  /** @param overrides - rules that differ from {@link DEFAULT_MODERATION_RULES} */
  constructor(overrides: Partial<ModerationRules> = {}) {
    const d = DEFAULT_MODERATION_RULES;
    this.bannedWords = [...(overrides.bannedWords ?? d.bannedWords)].map((w) => w.toLowerCase());
    this.allowedHosts = [...(overrides.allowedHosts ?? d.allowedHosts)].map((h) => h.toLowerCase());
    this.flood = { ...(overrides.flood ?? d.flood) };
    this.warningTtlMs = overrides.warningTtlMs ?? d.warningTtlMs;
  }
}
