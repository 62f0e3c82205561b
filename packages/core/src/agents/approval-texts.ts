import type { ApprovalRecord, ApprovalToolCall } from './approval-store.js';

/** One tool call as shown to approvers: its name and its arguments as JSON (cut past 300 characters). */
function shownCall(call: ApprovalToolCall): string {
  const input = JSON.stringify(call.input ?? {});
  return `\`${call.toolName}\` ${input.length > 300 ? `${input.slice(0, 300)}…` : input}`;
}

/**
 * The request message of an approval: what will be done, then how to answer (or how it was decided).
 * @param record - the approval
 * @param timeoutMinutes - how long it waits, for the request's own words
 */
export function requestText(
  record: Pick<ApprovalRecord, 'calls' | 'status' | 'decider' | 'code'>,
  timeoutMinutes: number,
): string {
  const what = record.calls.map(shownCall).join('\n');
  const command = record.code ? `, or use \`/approve ${record.code}\` or \`/deny ${record.code}\`` : '';
  const by = record.decider && !['timeout', 'cancel'].includes(record.decider) ? ` by <@${record.decider}>` : '';
  switch (record.status) {
    case 'pending':
      return `🔐 Approval needed to run:\n${what}\nReply **yes** or **no** to this message${command} (denied after ${timeoutMinutes} min).`;
    case 'approved':
      return `✅ Approved${by}:\n${what}`;
    case 'denied':
      return `❌ Denied${by}:\n${what}`;
    case 'timeout':
      return `⌛ Denied, no answer in time:\n${what}`;
    case 'cancelled':
      return `🚫 Cancelled:\n${what}`;
  }
}
