import type { Logger } from '@boardbot/protocol';
import { BotStateError, InvalidConfigError } from '../../errors.js';
import type { BotPart, PartList, PartPlace } from './part.js';

/** Where the runner is: its parts can change only while it is idle or running. */
type Phase = 'idle' | 'starting' | 'running' | 'stopping' | 'stopped';

/**
 * Runs a bot's parts, as Fastify's avvio runs plugins: starts them one after the other, in order;
 * stops them in reverse (first every part's `stop`, then every part's `close`), each only if it
 * started; and changes the list while the bot runs. It names no part: what each one does is its own.
 */
export class PartRunner implements PartList {
  private readonly parts: BotPart[] = [];
  private readonly started = new Set<BotPart>();
  private phase: Phase = 'idle';

  /**
   * @param parts - the bot's parts, in the order they start
   * @param log - hears a part that failed to stop or close (the others still do)
   */
  constructor(
    parts: readonly BotPart[],
    private readonly log: Logger,
  ) {
    for (const part of parts) {
      this.unique(part.name);
      this.parts.push(part);
    }
  }

  names(): string[] {
    return this.parts.map((part) => part.name);
  }

  get(name: string): BotPart | undefined {
    return this.parts.find((part) => part.name === name);
  }

  async add(part: BotPart, place: PartPlace = {}): Promise<void> {
    this.changeable(`add the part ${part.name}`);
    this.unique(part.name);
    const at =
      place.before !== undefined
        ? this.indexOf(place.before)
        : place.after !== undefined
          ? this.indexOf(place.after) + 1
          : this.parts.length;
    if (this.phase === 'running') await this.startOne(part);
    this.parts.splice(at, 0, part);
  }

  async replace(name: string, part: BotPart): Promise<void> {
    this.changeable(`replace the part ${name}`);
    const at = this.indexOf(name);
    const old = this.parts[at] as BotPart;
    if (part.name !== name) this.unique(part.name);
    if (this.phase === 'running') await this.startOne(part);
    this.parts[at] = part;
    await this.end([old]);
  }

  async remove(name: string): Promise<void> {
    this.changeable(`remove the part ${name}`);
    const [old] = this.parts.splice(this.indexOf(name), 1);
    await this.end([old as BotPart]);
  }

  /**
   * Starts every part, in order. Rejects with the first part's failure, leaving the parts started so
   * far running: the caller says so, then {@link PartRunner.stop}s them.
   */
  async start(): Promise<void> {
    if (this.phase !== 'idle') throw new BotStateError(`the parts cannot start again (${this.phase})`);
    this.phase = 'starting';
    for (const part of [...this.parts]) {
      const starting = part.start?.();
      if (starting) await starting;
      this.started.add(part);
      // A stop while the part started: the caller stops again, closing this one too.
      if (this.phase !== 'starting') throw new BotStateError(`the bot was stopped while its part ${part.name} started`);
    }
    this.phase = 'running';
  }

  /** Stops, then closes, every part that started (and every part without `start`), in reverse order. */
  async stop(): Promise<void> {
    this.phase = 'stopping';
    await this.end(this.parts);
    this.phase = 'stopped';
  }

  /** The readiness checks of the parts that have one, by part name, newest first. */
  async readiness(): Promise<Record<string, boolean>> {
    const checks: Record<string, boolean> = {};
    for (const part of [...this.parts].reverse()) {
      if (part.ready) checks[part.name] = await Promise.resolve(part.ready()).catch(() => false);
    }
    return checks;
  }

  /** Starts one part; one whose start is not asynchronous is started at once (the signals, from the first moment). */
  private async startOne(part: BotPart): Promise<void> {
    const starting = part.start?.();
    if (starting) await starting;
    this.started.add(part);
  }

  /** Stops the parts, then closes them, last first; one that fails is logged and the others go on. */
  private async end(parts: readonly BotPart[]): Promise<void> {
    const last = parts.filter((part) => this.started.has(part) || part.start === undefined).reverse();
    for (const step of ['stop', 'close'] as const) {
      for (const part of last) {
        await Promise.resolve()
          .then(() => part[step]?.())
          .catch((err: unknown) => this.log.error({ err, part: part.name }, `part failed to ${step}`));
      }
    }
    for (const part of last) this.started.delete(part);
  }

  private unique(name: string): void {
    if (this.get(name)) throw new InvalidConfigError(`The bot already has a part named ${name}: give another name.`);
  }

  private indexOf(name: string): number {
    const at = this.parts.findIndex((part) => part.name === name);
    if (at < 0) throw new InvalidConfigError(`The bot has no part named ${name} (it has ${this.names().join(', ')}).`);
    return at;
  }

  private changeable(what: string): void {
    if (this.phase === 'idle' || this.phase === 'running') return;
    throw new BotStateError(`Cannot ${what} while the bot is ${this.phase}: wait for start() or stop() to finish.`);
  }
}
