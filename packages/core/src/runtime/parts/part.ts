/**
 * One part of a running bot (its signal handlers, its health endpoint, its event source, its
 * dispatch...): what it opens when the bot starts, whether it is ready, and what it stops and closes
 * when the bot stops. A bot is a list of parts started in order and closed in reverse by one runner;
 * `bot.parts` adds, replaces and removes them, also while the bot runs. See docs/architecture.md,
 * "Parts".
 */
export interface BotPart {
  /** Unique in the bot: how the part is replaced or removed, and the name of its readiness check. */
  readonly name: string;
  /**
   * Opens the part once the parts before it have started; the bot is started when every part's
   * `start` resolved. A rejection fails the start: the parts started so far are stopped and closed.
   * A part without `start` holds what it was given when it was made: it is closed even when the
   * bot never started.
   */
  start?(): void | Promise<void>;
  /**
   * Whether the part is ready for traffic: the bot's `/readyz` lists it under the part's name, and
   * answers ready only when every part that has this check is.
   */
  ready?(): boolean | Promise<boolean>;
  /**
   * The first step of a stop, parts in reverse order: the part takes no new work, and resolves once
   * the work it runs has finished or was given up.
   */
  stop?(): void | Promise<void>;
  /** The last step of a stop, parts in reverse order once every part stopped: releases what it holds. */
  close?(): void | Promise<void>;
}

/** Where a part added to a bot goes in its order: before or after a part it names. @defaultValue the end */
export interface PartPlace {
  /** The name of the part it goes before. */
  before?: string;
  /** The name of the part it goes after. */
  after?: string;
}

/**
 * A bot's parts, in the order they start (`bot.parts`). Changed while the bot runs, a part added is
 * started at once, and one removed (or replaced) is stopped and closed at once; before the start,
 * the list only changes.
 */
export interface PartList {
  /** The parts' names, in the order they start. */
  names(): string[];
  /** The part of that name, if any. */
  get(name: string): BotPart | undefined;
  /**
   * Adds a part; started at once when the bot runs (and not added if its start fails).
   * @param part - the part, whose name no other part has
   * @param place - where it goes in the order @defaultValue the end: started last, stopped first
   */
  add(part: BotPart, place?: PartPlace): Promise<void>;
  /**
   * Puts `part` in the place of the part named `name`: while the bot runs, the new part is started
   * first (the old one stays if that fails), then the old one is stopped and closed.
   * @param name - the part to replace
   * @param part - its replacement
   */
  replace(name: string, part: BotPart): Promise<void>;
  /**
   * Removes the part named `name`; stopped and closed at once when it had started.
   * @param name - the part to remove
   */
  remove(name: string): Promise<void>;
}
