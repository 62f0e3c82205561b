import type { ApprovalRecord, ApprovalStatus, ApprovalToolCall } from './approval-store.js';

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
  if (record.status === 'pending') {
    return `🔐 Approval needed to run:\n${what}\nReply **yes** or **no** to this message${command} (denied after ${timeoutMinutes} min).`;
  }
  return decidedText(record.status, record.decider, what);
}

/**
 * A decided request message: how it was decided, by whom, then what was asked. The agents' requests
 * and those of an agent outside the bot (`boardApproval`) are edited to it.
 * @param status - how it was decided
 * @param decider - the user id who decided (`timeout`, `cancel`, none: no one)
 * @param what - what was asked, as the request showed it
 */
export function decidedText(
  status: Exclude<ApprovalStatus, 'pending'>,
  decider: string | undefined,
  what: string,
): string {
  const by = decider && !['timeout', 'cancel'].includes(decider) ? ` by <@${decider}>` : '';
  switch (status) {
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
