import type { Message, UserProfile } from '@boardbot/protocol';
import type { StreamedAnswer, StreamSource } from '../answers/stream-options.js';
import type { ContextDeps } from '../kernel/base-context.js';
import type { ReplyBody } from '../kernel/context.js';
import { TextCommandContextImpl } from '../text-commands/text-context.js';

/** What a command run as a tool said: its answers, or what would have refused it or apologised. */
export interface ToolCapture {
  /** The answers' text, in order: the tool's result. */
  answers: string[];
  /** What the person would have been told instead of an answer: a refusal, or the apology. */
  refused?: { reason: 'refused' | 'failed'; told: string };
  /** Set by `mayRefuse()`: the next answer is a refusal. */
  refusing: boolean;
}

/** The text of an answer, for the model: its content, else its embeds' titles and texts. */
function textOf(body: ReplyBody): string {
  if (typeof body === 'string') return body;
  const embeds = (body.embeds ?? []).map((e) => [e.title, e.description].filter(Boolean).join(': '));
  return [body.content ?? '', ...embeds].filter((t) => t !== '').join('\n');
}

/**
 * The context of a command the assistant runs as a tool, for the asking person: to the guards,
 * cooldown and handler it is that person's text invocation, replying to the message that asked;
 * its answers are not posted but kept for the model (the tool's result), and so are its refusals
 * and the apology (the tool's error). Copies made for the runtime's voice share the capture.
 */
export class ToolCommandContextImpl<O extends object> extends TextCommandContextImpl<O> {
  /**
   * @param deps - what the runtime provides
   * @param message - the message that asked the assistant
   * @param user - its author: whom the command runs as
   * @param command - the command and subcommand the tool runs
   * @param capture - where its answers go
   */
  constructor(
    deps: ContextDeps,
    message: Message,
    user: UserProfile,
    command: { name: string; subcommand: string | null },
    private readonly capture: ToolCapture,
  ) {
    super(deps, message, user, command, '/');
  }

  /** A refusal is always "told": to the model, as the tool's error. */
  override mayRefuse(): boolean {
    this.capture.refusing = true;
    return true;
  }

  /** Keeps the answer for the model; resolves with the asking message (nothing was posted). */
  override async reply(body: ReplyBody): Promise<Message> {
    const text = textOf(body);
    const { capture } = this;
    // A refusal comes through the handler's voice after mayRefuse(); the apology (and an error hook's
    // words) through the runtime's voice once the handler threw.
    if (capture.refusing) capture.refused = { reason: 'refused', told: text };
    else if (this.voice.runtime) capture.refused ??= { reason: 'failed', told: text };
    else capture.answers.push(text);
    capture.refusing = false;
    this.answers++;
    return this.message;
  }

  override followUp(body: ReplyBody): Promise<Message> {
    return this.reply(body);
  }

  /** A streamed answer is read whole and kept as one answer: nothing is posted. */
  override async stream(source: StreamSource): Promise<StreamedAnswer> {
    let text = '';
    for await (const piece of source as AsyncIterable<string>) text += piece;
    await this.reply(text);
    return { text, parts: [] };
  }
}
