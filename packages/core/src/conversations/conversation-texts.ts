// Every text a conversation says on its own (not the bot's questions or `done`'s reply), in one
// place: the defaults of its options, and how an answer class's refusal is put together. The
// question asked again goes through `ctx.t('boardbot:reask')` (kernel/translate.ts).

/** The default `timeoutReply` of the conversation `name`. */
export const defaultTimeoutReply = (name: string): string =>
  `That ${name} timed out before you answered; start it again when you are ready.`;

/** The default `cancelReply`. */
export const DEFAULT_CANCEL_REPLY = 'Cancelled.';

/** The default `triesReply` of the conversation `name`. */
export const defaultTriesReply = (name: string): string =>
  `That ${name} ended: none of the answers could be taken. Start it again when you are ready.`;

/**
 * The reason an answer class refused an answer: its problems, one a line, as a command's options
 * would be refused (`age must not be less than 0`).
 */
export const answerClassRefusal = (problems: readonly string[]): string => problems.join('\n');
