import type { StreamedAnswer } from '../answers/stream-options.js';
import { StreamStatus } from '../answers/stream-status.js';
import type { MessageContext } from '../listeners/context.js';

/**
 * What a turn answers through: the context of the run that runs it (the asking message's, or the
 * reply's or command's that approved it).
 */
export type TurnVoice = Pick<
  MessageContext,
  'log' | 'reply' | 'stream' | 'session' | 'signal' | 'boardId' | 'idempotencyKey'
>;

/**
 * A turn's streamed answer, begun only when there is something to show: the first text, or (with
 * progress) the first tool call's status line. So a step that only asks for approval posts the
 * request alone. Text is pushed as the model gives it; the status line is replaced by the next text.
 */
export class TurnAnswer {
  private readonly status = new StreamStatus();
  private readonly queue: string[] = [];
  private wake: (() => void) | undefined;
  private ended = false;
  private failure: unknown;
  private streaming: Promise<StreamedAnswer> | undefined;

  /**
   * @param ctx - the run's context: the answer is its reply
   * @param progress - the status line of a tool call, or false for none
   */
  constructor(
    private readonly ctx: Pick<TurnVoice, 'stream'>,
    private readonly progress: false | ((toolName: string) => string),
  ) {}

  /** Whether the answer was begun. */
  get begun(): boolean {
    return this.streaming !== undefined;
  }

  /** A tool call starts: its status line, shown (the answer begun) when progress is on. */
  toolCall(toolName: string): void {
    if (this.progress === false) return;
    this.status.set(this.progress(toolName));
    this.begin();
  }

  /** Text of the answer. */
  push(text: string): void {
    if (text === '') return;
    this.queue.push(text);
    this.begin();
    this.wake?.();
  }

  /**
   * Ends the answer (posting the empty answer's words if `always` and nothing was begun) and waits
   * for its final edit.
   * @param always - begin it even if nothing was shown
   * @param failure - the model's error, which stops the answer with its marker
   */
  async end(always: boolean, failure?: unknown): Promise<void> {
    this.ended = true;
    this.failure = failure;
    if (always || failure !== undefined) this.begin();
    this.wake?.();
    await this.streaming;
  }

  private begin(): void {
    this.streaming ??= this.ctx.stream(this.texts(), { status: this.status });
  }

  private async *texts(): AsyncGenerator<string> {
    for (;;) {
      const next = this.queue.shift();
      if (next !== undefined) yield next;
      else if (this.ended) {
        if (this.failure !== undefined) throw this.failure;
        return;
      } else
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
    }
  }
}
