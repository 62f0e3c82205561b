import type { McpApproval } from '../options.js';

/**
 * Asks for a person's approval of a write before it runs, on the write's board: undefined once
 * approved, else what the agent is told instead (denied, or still pending, and nothing was done).
 * @param approval - the server's approval
 * @param name - the tool
 * @param args - its checked arguments (`board_id`, an `idempotency_key` keeps the same request)
 * @param signal - aborted when the agent cancels its call @defaultValue none
 */
export async function approvalRefusal(
  approval: McpApproval,
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const { idempotency_key: key, ...shown } = args;
  const boardId = String(args.board_id);
  const what = `\`${name}\` ${JSON.stringify(shown).slice(0, 500)}`;
  const outcome = await approval({ boardId, what, signal, ...(typeof key === 'string' && { key }) });
  if (outcome.decision === 'approve') return undefined;
  if (outcome.decision === 'deny') {
    return `${name} was denied by user ${outcome.by} on the board (approval request ${outcome.requestId}); nothing was done. Do not call it again unless asked to.`;
  }
  const again =
    typeof key === 'string'
      ? 'Call it again with the same arguments and idempotency_key to keep waiting on the same request.'
      : 'Call it again with an idempotency_key to wait on one request across calls (without one, each call posts a new request).';
  return `${name} waits for a person's approval on the board (request message ${outcome.requestId}); nothing was done yet. ${again}`;
}
