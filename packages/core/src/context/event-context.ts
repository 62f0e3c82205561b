import type { Message } from '@boardbot/protocol';
import { BaseContextImpl, type ContextDeps } from './base-context.js';
import { toWireBody } from './body.js';
import type { EventContext, ReplyBody } from './types.js';

/** The {@link EventContext} of one gateway event and `@OnEvent` listener. */
export class EventContextImpl extends BaseContextImpl implements EventContext {
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
    const options = this.admit('send');
    return this.rest.sendMessage(boardId, toWireBody(body), options);
  }
}
