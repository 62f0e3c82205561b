/** An approver's answer: approve, or deny. */
export type ApprovalAnswer = 'approve' | 'deny';

/**
 * The reply words that decide an approval, as the whole reply (case, accents of the word itself,
 * surrounding spaces and a final `.` or `!` aside), in English, French, Spanish and German. Any other
 * reply to the request decides nothing.
 */
export const APPROVAL_WORDS: Readonly<Record<ApprovalAnswer, readonly string[]>> = {
  approve: ['yes', 'y', 'ok', 'approve', 'approved', '/approve', '!approve', 'oui', 'sí', 'si', 'ja'],
  deny: ['no', 'n', 'deny', 'denied', '/deny', '!deny', 'non', 'nein'],
};

/**
 * What a reply to an approval request says: approve, deny, or nothing (undefined).
 * @param text - the reply's content
 */
export function approvalAnswer(text: string | null): ApprovalAnswer | undefined {
  if (text === null) return undefined;
  const word = text
    .trim()
    .toLowerCase()
    .replace(/[.!]+$/, '');
  if (APPROVAL_WORDS.approve.includes(word)) return 'approve';
  if (APPROVAL_WORDS.deny.includes(word)) return 'deny';
  return undefined;
}
