import { randomBytes } from 'node:crypto';
import type { Message } from '@boardbot/protocol';
import { LIMITS } from '@boardbot/protocol/runtime';
import { StreamKeyReusedError, StreamStoppedError, type StreamStopReason } from '../errors.js';
import { apiCodeOf } from '../kernel/api-code.js';
import type { Clock } from '../kernel/clock.js';
import type { BotRest } from '../kernel/ports.js';
import { type HandlerRun, namedKey } from '../kernel/run.js';
import type { RunSlots } from '../policies/running-handlers.js';
import { extendDeadline } from '../policies/supervise.js';
import type { AnswerPart, AnswerRecord } from './answer-record.js';
import { SourceReader } from './source-reader.js';
import { AnswerSplitter, splitAnswer } from './split-answer.js';
import {
  DEFAULT_STREAM_OPTIONS,
  STREAM_TEXTS,
  type StreamedAnswer,
  type StreamOptions,
  type StreamSource,
} from './stream-options.js';
import type { StreamStatus } from './stream-status.js';

/** How a context posts an answer's messages, each carrying the fixed placeholder. */
export interface AnswerTarget {
  /** The first message: a reply (or the interaction's answer), the run's next write (its ordinal key). */
  first(content: string): Promise<Message>;
  /** Message `n` (from 1) of a long answer, under `key` (named, the same on every run of the event). */
  more(content: string, key: string, n: number): Promise<Message>;
}

/** What a stream is made from (the context supplies it). */
export interface AnswerStreamDeps {
  run: HandlerRun;
  /** The run's REST facade. */
  rest: BotRest;
  clock: Clock;
  record: AnswerRecord;
  target: AnswerTarget;
  /** Sends one of the stream's writes as the run (refused once the run was abandoned). */
  write<T>(send: () => Promise<T>): Promise<T>;
  /** The stream's number within its run (a handler may stream twice). */
  index: number;
  /** Hands the run's slot back once the answer exists; tells when the bot begins to stop. */
  slots: RunSlots;
}

// Time a stream's run is given past maxDurationMs for its final edit.
const FINAL_EDIT_GRACE_MS = 30_000;
// Every edit but the final one ends with the cursor, so a part's layout keeps room for it.
const LIMIT = LIMITS.contentLength - STREAM_TEXTS.cursor.length;

/** One message of the answer as this run knows it. */
interface Shown extends AnswerPart {
  /** What it shows now (`undefined`: unknown, a part an earlier run posted). */
  shown: string | undefined;
}

type Defined = Required<Omit<StreamOptions, 'status'>> & Pick<StreamOptions, 'status'>;

function defined(options: StreamOptions): Defined {
  const o: Defined = { ...DEFAULT_STREAM_OPTIONS };
  for (const [k, v] of Object.entries(options)) if (v !== undefined) (o as Record<string, unknown>)[k] = v;
  return o;
}

/**
 * Streams one answer: posts the placeholder, then edits the answer as text arrives (at most one edit
 * per `throttleMs`, one write at a time, each carrying all the text so far, so text that arrives
 * while a write waits in the rate-limit queue joins the next one), continues it in new messages past
 * the content limit, and makes a final edit. Its parts are recorded, so the same event handled again
 * edits them and deletes the extra ones.
 *
 * @param deps - the run, its REST facade, the record and how to post
 * @param source - the text
 * @param options - throttle and bounds
 * @throws StreamStoppedError when the source threw, stalled or ran too long (after the marker's edit)
 * @throws StreamKeyReusedError when a write met `422 idempotency_key_reused`
 */
export function streamAnswer(
  deps: AnswerStreamDeps,
  source: StreamSource,
  options: StreamOptions = {},
): Promise<StreamedAnswer> {
  return new AnswerStream(deps, defined(options)).run(source);
}

/** The last part's text while the answer streams, with the status line (in italics) if one is set. */
function withStatus(text: string, status: StreamStatus | undefined): string {
  const line = status?.line;
  const shown = line === undefined ? text : `${text}${text === '' ? '' : '\n\n'}_${line}_`;
  // A part already near the content limit shows no status: its layout has room for the cursor only.
  return shown.length > LIMIT ? text : shown;
}

class AnswerStream {
  private text = '';
  private readonly parts: Shown[] = [];
  private earlier: AnswerPart[] = [];
  private readonly key: string;
  private readonly nonce = randomBytes(4).toString('hex');
  private edits = 0;
  /** Splits the growing text, cutting again only past the parts already final. */
  private readonly splitter = new AnswerSplitter(LIMIT);
  private lastEditAt = Number.NEGATIVE_INFINITY;
  private dirty = false;
  /** Set when the source ended: `null` when it ended well, else why it stopped. */
  private ended: StreamStoppedError | null | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly deps: AnswerStreamDeps,
    private readonly o: Defined,
  ) {
    this.key = namedKey(deps.run, `stream.${deps.index}`);
  }

  async run(source: StreamSource): Promise<StreamedAnswer> {
    const { run, clock, record, target, slots } = this.deps;
    const started = clock.now();
    extendDeadline(run, this.o.maxDurationMs + this.o.throttleMs + FINAL_EDIT_GRACE_MS, clock);
    // The bot is stopping already: no new answer begins (the next start gives it).
    if (slots.stopping.aborted) throw this.interrupted();
    this.earlier = await record.read(this.key);
    const first = await this.guard(() => target.first(STREAM_TEXTS.placeholder), false);
    this.parts.push({ boardId: first.board_id, messageId: first.id, shown: STREAM_TEXTS.placeholder });
    if (this.earlier[0]?.messageId !== first.id) await this.remember();
    // The answer exists and is recorded: the board's next events may run while it streams (its own
    // edits stay in order, one at a time), and its event stays unfinished until it ends.
    slots.releaseSlot(run);

    const reader = new SourceReader(source, clock, run.signal, slots.stopping);
    // A new status line is shown by the next throttled edit, as new text is.
    const unwatch = this.o.status?.watch(() => {
      this.dirty = true;
      this.wake?.();
    });
    // A status set before the answer began is shown by its first edit.
    if (this.o.status?.line !== undefined) this.dirty = true;
    const pumping = this.pump();
    // A failed write stops the reading too (the pump only ends on its own after the final edit).
    const failed = pumping.then(() => new Promise<never>(() => {}));
    try {
      this.finish(await this.read(reader, started, failed));
    } catch (error) {
      unwatch?.();
      reader.stop({ kind: 'done' });
      this.finish(null);
      throw error;
    }
    await pumping;
    unwatch?.();
    if (this.ended) throw this.ended;
    return { text: this.text, parts: this.parts.map(({ boardId, messageId }) => ({ boardId, messageId })) };
  }

  /** Reads the source to its end, or until a bound stops it. */
  private async read(
    reader: SourceReader,
    started: number,
    failed: Promise<never>,
  ): Promise<StreamStoppedError | null> {
    const { handler } = this.deps.run;
    for (;;) {
      const step = await Promise.race([reader.next(this.o.idleTimeoutMs, started + this.o.maxDurationMs), failed]);
      if (step.kind === 'done') return null;
      if (step.kind === 'stopped' && step.reason === 'interrupted') return this.interrupted();
      if (step.kind === 'stopped')
        return new StreamStoppedError(handler, step.reason, this.bound(step.reason), step.cause);
      this.text += step.text;
      this.o.status?.set(undefined);
      if (this.text.length > this.o.maxLength) {
        this.text = this.text.slice(0, this.o.maxLength);
        reader.stop(step);
        return new StreamStoppedError(handler, 'too_long', this.o.maxLength);
      }
      this.dirty = true;
      this.wake?.();
    }
  }

  /**
   * The bot began to stop: the answer ends as it stands, marked interrupted, and the event is left
   * unfinished (above the resume point, even if the handler catches the error) for the next start.
   */
  private interrupted(): StreamStoppedError {
    const { run } = this.deps;
    if (run.outcome) run.outcome.abandoned = true;
    return new StreamStoppedError(run.handler, 'interrupted', 0);
  }

  private bound(reason: StreamStopReason): number {
    if (reason === 'idle') return this.o.idleTimeoutMs;
    return reason === 'too_long' ? this.o.maxLength : this.o.maxDurationMs;
  }

  private finish(stop: StreamStoppedError | null): void {
    this.ended ??= stop;
    this.wake?.();
  }

  /** Edits the answer at most once per `throttleMs` while text arrives, then makes the final edit. */
  private async pump(): Promise<void> {
    const { clock } = this.deps;
    for (;;) {
      if (!this.dirty && this.ended === undefined) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = undefined;
      }
      // Checked again after each wait: a timer measures from the event loop's cached time, so on a
      // busy loop it can fire before the throttle's time has passed by the clock. An interrupted
      // answer's final edit does not wait: the shutdown deadline runs.
      const hurry = this.ended?.reason === 'interrupted';
      for (let wait = hurry ? 0 : this.lastEditAt + this.o.throttleMs - clock.now(); wait > 0; ) {
        await new Promise<void>((resolve) => clock.setTimeout(resolve, wait));
        wait = this.lastEditAt + this.o.throttleMs - clock.now();
      }
      const final = this.ended !== undefined;
      this.dirty = false;
      await this.flush(final);
      if (final) return;
    }
  }

  /** What the answer shows: the text, and on the final edit the marker or the empty answer's words. */
  private display(final: boolean): string {
    if (!final) return this.text;
    if (this.ended)
      return (
        this.text + (this.ended.reason === 'interrupted' ? STREAM_TEXTS.interrupted : STREAM_TEXTS.stopped)
      ).trimStart();
    return this.text === '' ? STREAM_TEXTS.empty : this.text;
  }

  /** Brings every part to the current text: edits what changed, posts the parts it lacks. */
  private async flush(final: boolean): Promise<void> {
    // The final edit may show other text than the stream's (a marker, the answer trimmed): split whole, once.
    const contents = final ? splitAnswer(this.display(final), LIMIT) : this.splitter.split(this.text);
    for (let i = 0; i < contents.length; i++) {
      const last = i === contents.length - 1;
      const content =
        final || !last
          ? (contents[i] as string)
          : `${withStatus(contents[i] as string, this.o.status)}${STREAM_TEXTS.cursor}`;
      const part = this.parts[i] ?? (await this.addPart(i));
      if (part.shown !== content) await this.edit(i, part, content);
    }
    if (final) await this.dropExtras(contents.length);
  }

  /** Part `i`: the one an earlier run posted, else a new message (the placeholder under its named key). */
  private async addPart(i: number): Promise<Shown> {
    const known = this.earlier[i];
    if (known) {
      const part = { ...known, shown: undefined };
      this.parts.push(part);
      return part;
    }
    const key = namedKey(this.deps.run, `stream.${this.deps.index}.p${i}`);
    const m = await this.guard(() => this.deps.target.more(STREAM_TEXTS.placeholder, key, i));
    const part = { boardId: m.board_id, messageId: m.id, shown: STREAM_TEXTS.placeholder };
    this.parts.push(part);
    await this.remember();
    return part;
  }

  private async edit(i: number, part: Shown, content: string): Promise<void> {
    // Edits are keyed per run (the nonce): an edit is never a replay of an earlier run's edit, whose
    // text may differ; only the posts that create parts must be found again, and they are.
    const key = namedKey(this.deps.run, `stream.${this.deps.index}.p${i}.e${this.edits++}.${this.nonce}`);
    await this.guard(() => {
      this.lastEditAt = this.deps.clock.now();
      return this.deps.rest.editMessage(
        part.boardId,
        part.messageId,
        { content },
        { idempotencyKey: key, admit: this.admit },
      );
    });
    part.shown = content;
  }

  /** Deletes the parts an earlier run posted beyond this run's answer, then records the answer as it stands. */
  private async dropExtras(count: number): Promise<void> {
    const kept = new Set(this.parts.slice(0, count).map((p) => p.messageId));
    const extras = new Map<string, AnswerPart>();
    for (const p of [...this.earlier, ...this.parts.slice(count)])
      if (!kept.has(p.messageId)) extras.set(p.messageId, p);
    for (const p of extras.values()) {
      await this.guard(() => this.deps.rest.deleteMessage(p.boardId, p.messageId, { admit: this.admit }));
    }
    this.parts.length = Math.min(this.parts.length, count);
    this.earlier = [];
    if (extras.size > 0) await this.remember();
  }

  /** Records this run's parts, and those of an earlier run beyond them (not deleted yet). */
  private remember(): Promise<void> {
    const parts: AnswerPart[] = this.parts.map(({ boardId, messageId }) => ({ boardId, messageId }));
    for (const p of this.earlier.slice(parts.length)) parts.push(p);
    return this.deps.record.write(this.key, parts);
  }

  /**
   * Refuses a write once the event has another owner (a replica that lost its partition): checked
   * before each write and again as its request leaves (after the rate limit's wait), by the lease's
   * deadline against the clock, since a process paused past its lease wakes before its timers notice.
   * @throws StreamStoppedError with reason `'lost'`
   */
  private readonly admit = (): void => {
    const { run } = this.deps;
    if (run.outcome?.owned?.() !== false) return;
    run.outcome.abandoned = true;
    throw new StreamStoppedError(run.handler, 'lost', 0);
  };

  /** Sends a write as the run; a `422` is an error here, never "already applied". */
  private async guard<T>(send: () => Promise<T>, asRun = true): Promise<T> {
    this.admit();
    try {
      return await (asRun ? this.deps.write(send) : send());
    } catch (error) {
      if (apiCodeOf(error) === 'idempotency_key_reused') throw new StreamKeyReusedError(this.deps.run.handler, error);
      throw error;
    }
  }
}
