import type { Message } from '@boardbot/protocol';
import { ContextBase, type ContextDeps } from '../kernel/base-context.js';
import { toWireBody } from '../kernel/body.js';
import type { ReplyBody } from '../kernel/context.js';
import type { RunSubject, Scoped } from '../kernel/scoped.js';
import type { ScheduleContext, Tick } from './context.js';

/** The {@link ScheduleContext} of one tick of one scheduled method. */
export class ScheduleContextImpl extends ContextBase implements ScheduleContext {
  readonly kind = 'schedule' as const;
  private opening: Partial<RunSubject> = {};

  /**
   * @param deps - what the runtime provides
   * @param tick - the tick being run
   */
  constructor(
    deps: ContextDeps,
    readonly tick: Tick,
  ) {
    super(deps);
  }

  override session<H>(definition: Scoped<H>, subject: Partial<RunSubject> = {}): H {
    this.opening = subject;
    try {
      return super.session(definition);
    } finally {
      this.opening = {};
    }
  }

  protected override subject(): RunSubject {
    return { userId: this.opening.userId, boardId: this.opening.boardId };
  }

  async send(boardId: string, body: ReplyBody): Promise<Message> {
    const wire = toWireBody(body);
    return this.write('send', () => this.rest.sendMessage(boardId, wire));
  }
}
