import type { BoardbotErrorOptions, ErrorArgs } from '@boardbot/protocol';
import { BoardbotError, createErrorFactory } from '@boardbot/protocol/runtime';
import { NotImplementedError } from 'chat';

// The root every boardbot error extends, for `instanceof` and `isBoardbotError` without importing protocol.
export { BoardbotError, isBoardbotError } from '@boardbot/protocol/runtime';

// Every error of `@boardbot/chat-adapter`, declared once. What the platform cannot do is not among
// them: that is Chat SDK's own `NotImplementedError` (see notSupported below), which Chat SDK bots
// already catch by class.
const CHAT_ADAPTER_ERRORS = createErrorFactory({
  BOARDBOT_CHAT_INVALID_OPTION: {
    message: (option: string, problem: string) => `createBoardAdapter(): ${option} ${problem}.`,
  },
  BOARDBOT_CHAT_INVALID_THREAD_ID: {
    message: (id: string) =>
      `"${id}" is not a board thread or channel id: they read board:<board id> or ` +
      'board:<board id>:<root message id> (ids are UUIDs); take them from a Thread, a Channel or a Message.',
  },
  BOARDBOT_CHAT_NOT_INITIALIZED: {
    message: (what: string) =>
      `${what} was called before the Chat instance initialized the board adapter: await chat.initialize() first ` +
      '(it connects to the platform and opens its event stream).',
  },
});

/** Stable codes of the errors `@boardbot/chat-adapter` throws. Match on `error.code`, never on the message. */
export const CHAT_ADAPTER_ERROR_CODES = CHAT_ADAPTER_ERRORS.codes;

/** A stable error code of `@boardbot/chat-adapter`. */
export type ChatAdapterErrorCode = (typeof CHAT_ADAPTER_ERROR_CODES)[number];

/** Base of every error `@boardbot/chat-adapter` throws; `code` is stable. */
export abstract class BoardbotChatAdapterError extends BoardbotError {
  declare readonly code: ChatAdapterErrorCode;

  /** Takes the code, the arguments of its message template, and the underlying cause if any. */
  constructor(
    ...[code, args, options]: ErrorArgs<typeof CHAT_ADAPTER_ERRORS, [options?: BoardbotErrorOptions | undefined]>
  ) {
    super(code, CHAT_ADAPTER_ERRORS.message(code, args), options);
  }
}

/** An option of `createBoardAdapter()` cannot work (no token, a base URL that is not http(s)...). */
export class ChatAdapterOptionError extends BoardbotChatAdapterError {
  /**
   * @param option - the option, e.g. `token`
   * @param problem - what is wrong and how to fix it, e.g. `is missing: pass it or set BOARDBOT_TOKEN`
   */
  constructor(option: string, problem: string) {
    super('BOARDBOT_CHAT_INVALID_OPTION', [option, problem]);
  }
}

/** A thread or channel id that this adapter did not make. */
export class InvalidThreadIdError extends BoardbotChatAdapterError {
  /** @param id - the id given */
  constructor(id: string) {
    super('BOARDBOT_CHAT_INVALID_THREAD_ID', [id.slice(0, 120)]);
  }
}

/** A method that needs the platform (the app's identity, the state adapter) ran before `initialize`. */
export class AdapterNotInitializedError extends BoardbotChatAdapterError {
  /** @param what - the method, e.g. `postMessage` */
  constructor(what: string) {
    super('BOARDBOT_CHAT_NOT_INITIALIZED', [what]);
  }
}

/** What the board platform has no API for, by Chat SDK feature name. */
export type UnsupportedFeature = 'buttons' | 'modals' | 'reactions' | 'typing' | 'files';

const WHY: Record<UnsupportedFeature, string> = {
  buttons: 'messages carry text and embeds, no interactive components; offer a slash command instead',
  modals: 'the platform has no dialogs; take input through a slash command’s options',
  reactions: 'messages have no reactions; answer with a message instead',
  typing: 'the platform has no typing indicator; stream the answer instead (thread.post of a stream)',
  files: 'apps cannot upload files; post a link, or an embed with an image URL',
};

/**
 * Chat SDK's own not-supported error for a feature the board platform lacks, so a Chat SDK bot's
 * `error instanceof NotImplementedError` holds as on any other platform.
 * @param feature - the feature
 */
export function notSupported(feature: UnsupportedFeature): NotImplementedError {
  return new NotImplementedError(`The board platform does not support ${feature}: ${WHY[feature]}.`, feature);
}
