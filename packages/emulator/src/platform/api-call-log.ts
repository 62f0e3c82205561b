import type { ApiCall } from '../control/schemas/why.js';

/** How many app API calls the emulator remembers for the playground's "why" (oldest dropped first). */
export const API_CALL_LOG_SIZE = 5000;

/**
 * The last app API calls, as the emulator saw them, so the playground can show what produced a bot's
 * message: the call that created it, and every call with the same `X-Request-Id` or trace id. Kept
 * in memory only: it explains what happened in this run, and is bounded.
 */
export class ApiCallLog {
  private readonly calls: (ApiCall | undefined)[] = new Array(API_CALL_LOG_SIZE);
  private next = 0;
  private readonly byMessage = new Map<string, ApiCall>();

  /**
   * Remembers a call.
   * @param call - the call, with the message it created, if any
   */
  record(call: ApiCall): void {
    const slot = this.next % API_CALL_LOG_SIZE;
    const old = this.calls[slot];
    if (old?.message_id != null && this.byMessage.get(old.message_id) === old) this.byMessage.delete(old.message_id);
    this.calls[slot] = call;
    this.next++;
    if (call.message_id !== null) this.byMessage.set(call.message_id, call);
  }

  /**
   * The call that created a message.
   * @param messageId - the message
   */
  creatorOf(messageId: string): ApiCall | undefined {
    return this.byMessage.get(messageId);
  }

  /**
   * Every remembered call made for the same reason as `call` (same request id, or same trace), oldest first.
   * @param call - the call
   */
  related(call: ApiCall): ApiCall[] {
    const out: ApiCall[] = [];
    const first = Math.max(0, this.next - API_CALL_LOG_SIZE);
    for (let i = first; i < this.next; i++) {
      const c = this.calls[i % API_CALL_LOG_SIZE] as ApiCall;
      const sameRequest = call.request_id !== null && c.request_id === call.request_id;
      const sameTrace = call.trace_id !== null && c.trace_id === call.trace_id;
      if (c === call || sameRequest || sameTrace) out.push(c);
    }
    return out;
  }

  /**
   * Every remembered edit of a message, oldest first.
   * @param messageId - the message
   */
  editsOf(messageId: string): ApiCall[] {
    const out: ApiCall[] = [];
    const first = Math.max(0, this.next - API_CALL_LOG_SIZE);
    for (let i = first; i < this.next; i++) {
      const c = this.calls[i % API_CALL_LOG_SIZE] as ApiCall;
      if (c.edited_message_id === messageId) out.push(c);
    }
    return out;
  }

  /** Forgets everything (a reset of the emulator). */
  clear(): void {
    this.calls.fill(undefined);
    this.byMessage.clear();
    this.next = 0;
  }
}
