import type { Message } from '@boardbot/protocol';
import { ContextBase, type ContextDeps } from '../kernel/base-context.js';
import { toWireBody } from '../kernel/body.js';
import type { ReplyBody } from '../kernel/context.js';
import type { EventContext } from './context.js';

/** The {@link EventContext} of one gateway event and `@OnEvent` listener. */
export class EventContextImpl extends ContextBase implements EventContext {
  readonly kind = 'event' as const;

  /**
   * @param deps - what the runtime provides
   * @param event - name and gateway id
   */
  constructor(
    deps: ContextDeps,
    readonly event: { readonly name: string; readonly id: string },
  ) {
    super(deps);
  }

  async send(boardId: string, body: ReplyBody): Promise<Message> {
    const wire = toWireBody(body);
    return this.write('send', () => this.rest.sendMessage(boardId, wire));
  }
}
