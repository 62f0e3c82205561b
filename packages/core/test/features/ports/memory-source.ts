import type { BotEvent, BotEventSource, DispatchOutcome, SourceHost } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';

/**
 * An event source of a test's own, beside the gateway and the Redis consumer: the test pushes events
 * and the bot handles them as it would the gateway's. It records what the bot asked of it, in order.
 */
export class MemorySource implements BotEventSource {
  readonly description = 'memory';
  /** What the bot did to the source: `start`, `pause`, `abandon`, `close`. */
  readonly calls: string[] = [];
  private host: SourceHost | undefined;
  private seq = 0;

  async start(host: SourceHost): Promise<{ source: string }> {
    this.calls.push('start');
    this.host = host;
    return { source: 'memory' };
  }

  async pause(): Promise<void> {
    this.calls.push('pause');
    this.host = undefined;
  }

  abandon(): void {
    this.calls.push('abandon');
  }

  async close(): Promise<void> {
    this.calls.push('close');
  }

  live(): boolean {
    return this.host !== undefined;
  }

  /** Hands the bot a message as the gateway would; resolves once its handlers finished. */
  message(message: Message): Promise<DispatchOutcome> {
    return this.push({ name: 'message.create', id: `memory-${++this.seq}`, data: { type: 'message.create', message } });
  }

  /** Hands the bot an event; refused once the bot paused the source. */
  push(event: BotEvent): Promise<DispatchOutcome> {
    if (!this.host) throw new Error('the source is not started, or was paused');
    return this.host.deliver(event);
  }
}
